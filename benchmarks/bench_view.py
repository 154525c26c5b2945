"""What the minimal view and keeping it resident cost a bot's start (issue 32).

    python benchmarks/bench_view.py [--runs 5]

As root with bubblewrap. For each runtime (the arena's Python, Java when installed), in
alternating runs:

- ``bare``: the program started with nothing around it (the reference);
- ``whole``: under bubblewrap with ``/usr`` and the Python installation shown whole (the view
  before issue 32, and a ladder's build step's now);
- ``minimal``: under bubblewrap with the minimal view, its files from the farm;
- the arena's own work before a start: the view's paths (cached in the process after the first),
  and :func:`keep_view_resident` with every stamp fresh, stale (re-advised) and missing (read).

It prints medians and ratios to ``bare``, and the bytes and files a view keeps resident.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from arena.sandbox._resident import state_folder  # noqa: E402
from arena.sandbox._sandbox import detect_sandbox  # noqa: E402
from arena.sandbox._view import view_paths  # noqa: E402


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
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
    runs = parser.parse_args().runs
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
        commands = {"bare": argv,
                    "whole": box.command(argv, cwd, None, env=env, whole_system=True),
                    "minimal": box.command(argv, cwd, None, env=env)}
        times: dict[str, list[float]] = {key: [] for key in commands}
        for _ in range(runs):
            for key, command in commands.items():
                times[key].append(timed(command, None if key == "bare" else bot_env))
        bare = statistics.median(times["bare"])
        for key, values in times.items():
            print(f"{name:7} start {key:8} {statistics.median(values) * 1000:8.0f}  x{statistics.median(values) / bare:.2f}")
        paths = view_paths(argv, cwd, env)
        resident, files = size_of(paths)
        print(f"{name:7} view: {len(paths)} paths, {files} files, {resident / 2**20:.0f} MiB kept resident")
        for state in ("fresh", "stale", "missing"):
            values = []
            for _ in range(max(1, runs // 2) if state == "missing" else runs):
                stamps = state_folder() / "resident"
                if state == "missing":
                    shutil.rmtree(stamps, ignore_errors=True)
                elif state == "stale":
                    for stamp in stamps.glob("*"):
                        os.utime(stamp, (0, 0))
                began = time.perf_counter()
                box.keep_view_resident(argv, cwd, env)
                values.append(time.perf_counter() - began)
            print(f"{name:7} residency, stamps {state:8} {statistics.median(values) * 1000:8.0f} ms")
    box.close()


if __name__ == "__main__":
    main()
