"""What the suite's two worker processes (pytest-xdist, ``-n 2`` in pyproject's addopts) share.

Each worker runs whole test files, two at a time. Most files share nothing but the machine;
the starter kits' builds write into ``examples/bots`` (a binary, class files, node_modules)
that the other worker may be running at that moment, so a build happens once per test run,
whichever worker asks first (:func:`once`). In a run of one process (``-n 0``) there is no
one to share with: everything here then does only what the process does alone.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path

#: the folder every worker of this run shares (set by the session fixture in ``conftest.py``:
#: the parent of the workers' own temporary folders); ``None`` in a run of one process
RUN_FOLDER: Path | None = None


def once(name: str, make: Callable[[], str | None]) -> str | None:
    """``make()``'s result, run by one worker of this test run while the other waits for it
    (``name`` names the task; results are JSON values). Without workers, ``make()``."""
    if RUN_FOLDER is None:
        return make()
    with open(RUN_FOLDER / f"{name}.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = RUN_FOLDER / f"{name}.json"
        if done.exists():
            return json.loads(done.read_text())
        result = make()
        done.write_text(json.dumps(result))
        return result
