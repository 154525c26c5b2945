"""Ladder disk per author (issue 33, point 3): what one author's submissions keep on disk when
it submits as fast as the default limits allow, before and after versions that can play no
more were removed.

One author uploads ``submissions_per_hour`` (10) archives an hour, each as large as allowed
(``max_upload_mb``, 20 MiB, stored in the database until removed), each building to a folder
of ``--folder-mb`` (180 MiB: a bot with its libraries, the figure the issue measured; allocated
with ``posix_fallocate``, so it takes real disk blocks without writing them). Each passes and
supersedes the last; the runner's next stretch then starts (:meth:`LadderRunner._remove_retired`,
the real code). ``--before`` skips the removal: every version stays, as before the change.

Measured: the bytes on disk of the submissions' folders (allocated blocks) and the database
file (with its -wal), after each simulated hour; per day is the hourly growth times 24::

    python benchmarks/ladder_disk.py --hours 2
    python benchmarks/ladder_disk.py --hours 2 --before
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.ladder._config import load_ladder  # noqa: E402
from arena.ladder._runner import LadderRunner  # noqa: E402
from arena.ladder._store import LadderStore  # noqa: E402
from arena.ladder._tree import disk_usage  # noqa: E402

MiB = 2**20


def on_disk(runner: LadderRunner) -> int:
    files = [runner.config.database, Path(f"{runner.config.database}-wal")]
    return disk_usage(runner.workdir) + sum(os.stat(f).st_blocks * 512 for f in files if f.exists())


def simulate(folder: Path, hours: int, folder_mb: int, before: bool) -> list[int]:
    """Bytes on disk after each simulated hour."""
    (folder / "ladder.toml").write_text('game = "dead-mans-draw"\nplayers = 2\n')
    config = load_ladder(folder / "ladder.toml")
    store = LadderStore.open(config.database, config.game, config.players)
    runner = LadderRunner(config, store, None, folder / "ladder.db.bots")
    limits = (0, config.max_pending_submissions, config.author_disk_bytes)  # the hour's limit is the loop's
    archive = os.urandom(config.max_upload_bytes)
    figures = []
    try:
        for _ in range(hours):
            for _ in range(config.submissions_per_hour):
                number, _ = store.add_submission("alice", archive, limits=None if before else limits)
                bot = runner.workdir / str(number)
                bot.mkdir(parents=True)
                (bot / "bot.toml").write_text('name = "bot"\ncommand = ["true"]\n')
                with open(bot / "libraries", "wb") as blob:
                    os.posix_fallocate(blob.fileno(), 0, folder_mb * MiB)
                store.decide(number, True, "passed", bot / "bot.toml", disk_usage(bot))
                store.activate(config.active_versions)
                if not before:  # the next stretch plays the active version only
                    trio.run(runner._remove_retired, {entrant.name for entrant in store.active()})
            figures.append(on_disk(runner))
    finally:
        store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=2)
    parser.add_argument("--folder-mb", type=int, default=180)
    parser.add_argument("--before", action="store_true", help="keep every version (no removal)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = simulate(Path(folder), args.hours, args.folder_mb, args.before)
    growth = (figures[-1] - figures[0]) / max(1, len(figures) - 1)
    label = "before (every version kept)" if args.before else "after (removal, quota)"
    print(f"{label}: " + ", ".join(f"hour {h + 1}: {b / MiB:,.0f} MiB" for h, b in enumerate(figures))
          + f"; growth {growth / MiB:,.0f} MiB/hour, {24 * growth / 2**30:,.1f} GiB/day")


if __name__ == "__main__":
    main()
