"""One image per runtime against one shared base image holding every runtime (issue 44).

    python benchmarks/bench_runtimes.py [--runs 3]

A bot's view shows of the system its runtime's files alone (``arena/sandbox/_runtimes.py``),
laid out as a farm and made an EROFS image once per content (``_farm``, ``_images``). The other
design makes one base image of every runtime the machine offers and shows it to every bot. For
each runtime installed here, and for their union (the shared base), this prints:

- files and bytes of the system it holds (each inode once, as the disk holds it);
- the image: its size (its disk, and the memory locked while a bot of it runs: ``_resident``
  locks every image a view mounts) and the time ``mkfs.erofs`` takes to make it (the start-up
  cost, paid once per machine and content by the first bot of that runtime);
- the time to mount it and run ``true`` inside nothing else (bubblewrap not involved): the
  per-start cost, the same whichever design.

Needs ``mkfs.erofs``; the mounts need root and Linux 6.12 or later (skipped otherwise).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from arena.sandbox._farm import farm  # noqa: E402
from arena.sandbox._python import python_view  # noqa: E402
from arena.sandbox._runtimes import Runtime, runtime_of  # noqa: E402


def runtimes() -> list[Runtime]:
    found = [Runtime("native"), runtime_of(Path(sys.executable), {}, None)]
    for name in ("sh", "python3.11", "python3", "node", "java", "perl"):
        program = shutil.which(name, path="/usr/bin:/bin")
        if program:
            runtime = runtime_of(Path(program), {"PATH": "/usr/bin:/bin"}, None)
            if os.path.realpath(program) not in {os.path.realpath(known.program or "") for known in found}:
                found.append(runtime)
    return found


def contents(runtime: Runtime) -> list[Path]:
    """What a view shows of it: its files and folders (of the arena's Python, what
    ``_python`` names of its installation too)."""
    more = python_view() if runtime.program == Path(sys.executable) else []
    return [*runtime.files(), *runtime.folders, *more]


def measure(paths: list[Path]) -> tuple[int, int]:
    """Files and bytes on disk of ``paths`` (folders walked), each inode once."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in paths:
        walk = [(str(path.parent), [], [path.name])] if not path.is_dir() else os.walk(path)
        for folder, _, names in walk:
            for name in names:
                try:
                    info = os.lstat(os.path.join(folder, name))
                except OSError:
                    continue
                if (info.st_dev, info.st_ino) not in seen:
                    seen.add((info.st_dev, info.st_ino))
                    total += info.st_blocks * 512
    return len(seen), total


def make_image(paths: list[Path], target: Path) -> float:
    source = farm(paths, ())
    began = time.perf_counter()
    subprocess.run(["mkfs.erofs", "--quiet", "-x-1", str(target), str(source)], check=True)
    return time.perf_counter() - began


def mount_and_run(image: Path) -> float | None:
    if os.geteuid() != 0:
        return None
    point = Path(tempfile.mkdtemp(prefix="bench-runtimes-mount-"))
    began = time.perf_counter()
    done = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t erofs -o ro,loop {image} {point} && true"],
                          capture_output=True)
    elapsed = time.perf_counter() - began
    point.rmdir()
    return elapsed if done.returncode == 0 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    if shutil.which("mkfs.erofs") is None:
        sys.exit("needs mkfs.erofs (apt-get install erofs-utils)")
    every = runtimes()
    rows = [(runtime.name, contents(runtime)) for runtime in every]
    rows.append(("shared base (all of the above)", [path for _, paths in rows for path in paths]))
    work = Path(tempfile.mkdtemp(prefix="bench-runtimes-"))
    print(f"{'runtime':34} {'files':>7} {'MiB':>8} {'image MiB':>10} {'mkfs s':>8} {'mount+run ms':>13}")
    try:
        for name, paths in rows:
            files, size = measure(paths)
            made, mounts = [], []
            for run in range(runs):
                target = work / f"image-{run}"
                made.append(make_image(paths, target))
                mounted = mount_and_run(target)
                if mounted is not None:
                    mounts.append(mounted)
            image = (work / "image-0").stat().st_size
            mount = f"{statistics.median(mounts) * 1000:13.1f}" if mounts else f"{'-':>13}"
            print(f"{name[:34]:34} {files:7d} {size / 2**20:8.1f} {image / 2**20:10.1f} "
                  f"{statistics.median(made):8.2f} {mount}")
            for leftover in work.iterdir():
                leftover.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
