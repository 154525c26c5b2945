"""What the minimal view, its images and keeping it resident cost a bot's start (issue 32).

    python benchmarks/bench_view.py [--runs 5]

As root with bubblewrap. For each runtime (the arena's Python, Java when installed), in
alternating runs:

- ``bare``: the program started with nothing around it (the reference);
- ``whole``: under bubblewrap with ``/usr`` and the Python installation shown whole (the view
  before issue 32, and a ladder's build step's now);
- ``minimal``: under bubblewrap with the minimal view, its files from the farm, bound as they are;
- ``images``: the same view with each folder an EROFS image mounted by the bot's child
  (``arena/sandbox/_images.py``: as root on Linux 6.12+);
- the arena's own work before a start, :meth:`Sandbox.prepare_view`: the view's arguments, its
  images (found made) and what it keeps resident (locked once per process as root); with
  ``--cold`` also once with no image made yet.

It prints medians and ratios to ``bare``, the bytes and files a view keeps resident, and the
size of its images.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from arena.sandbox._images import mount_images  # noqa: E402
from arena.sandbox._resident import state_folder  # noqa: E402
from arena.sandbox._detect import detect_sandbox  # noqa: E402
from arena.sandbox._view import view_paths  # noqa: E402


def timed(command: list[str], env: dict[str, str] | None = None, images=()) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   preexec_fn=(lambda: mount_images(images)) if images else None)
    return time.perf_counter() - began


def size_of(paths: list[Path]) -> tuple[int, int]:
    total = files = 0
    for path in paths:
        walk = [(str(path.parent), [], [path.name])] if path.is_file() else os.walk(path)
        for folder, _, names in walk:
            for name in names:
                try:
                    total += os.lstat(os.path.join(folder, name)).st_size
                    files += 1
                except OSError:
                    pass
    return total, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time a prepare_view with no image made yet")
    arguments = parser.parse_args()
    runs, cold = arguments.runs, arguments.cold
    box = detect_sandbox("auto")
    if box.bwrap is None:
        raise SystemExit("needs bubblewrap")
    cwd = HERE
    runtimes = {"python": [sys.executable, "-c", "pass"]}
    if shutil.which("java"):
        runtimes["java"] = ["java", "-XX:-UsePerfData", "-Xshare:auto", "-version"]
    print(f"load {os.getloadavg()[0]:.1f}; {runs} alternating runs; medians in ms, ratio to bare")
    for name, argv in runtimes.items():
        env = {"PATH": "/usr/bin:/bin"}
        bot_env = box.environment(env, argv, cwd)
        if cold:
            shutil.rmtree(state_folder() / "images", ignore_errors=True)
            began = time.perf_counter()
            box.prepare_view(argv, cwd, env)
            print(f"{name:7} prepare_view with no image made yet {(time.perf_counter() - began) * 1000:8.0f} ms")
        prepared = box.prepare_view(argv, cwd, env)
        images = prepared.images if prepared is not None else ()
        commands = {"bare": argv,
                    "whole": box.command(argv, cwd, None, env=env, whole_system=True),
                    "minimal": box.command(argv, cwd, None, env=env)}
        if images:
            commands["images"] = box.command(argv, cwd, None, env=env, prepared=prepared)
        times: dict[str, list[float]] = {key: [] for key in commands}
        for _ in range(runs):
            for key, command in commands.items():
                times[key].append(timed(command, None if key == "bare" else bot_env, images if key == "images" else ()))
        bare = statistics.median(times["bare"])
        for key, values in times.items():
            print(f"{name:7} start {key:8} {statistics.median(values) * 1000:8.0f}  x{statistics.median(values) / bare:.2f}")
        paths = view_paths(argv, cwd, env)
        resident, files = size_of(paths)
        print(f"{name:7} view: {len(paths)} paths, {files} files, {resident / 2**20:.0f} MiB kept resident without images")
        print(f"{name:7} images: {len(images)}, {sum(image.file.stat().st_size for image in images) / 2**20:.0f} MiB"
              + ("" if images else f" ({box.images_missing})"))
        for label, sandbox in (("with images", box), ("without", dataclasses.replace(box, images_missing="off"))):
            values = []
            for _ in range(runs):
                began = time.perf_counter()
                sandbox.prepare_view(argv, cwd, env)
                values.append(time.perf_counter() - began)
            print(f"{name:7} prepare_view {label:12} {statistics.median(values) * 1000:8.1f} ms")
    box.close()


if __name__ == "__main__":
    main()
