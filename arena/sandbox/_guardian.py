"""The guardian of an arena's cgroups: thaws and kills what the arena left in them once the
arena's process is gone, however it ended.

Every bot process dies with the arena (``_spawn``: the parent-death signal), but a process
frozen by a cgroup v1 freezer does not die of SIGKILL until it is thawed, and a bot is frozen
whenever it is not on move: an arena killed with ``kill -9`` left its frozen bots behind until
the next arena swept their cgroups. So the first time a process of the arena makes a bot's
cgroups (:func:`guard`), it starts a guardian: a small process of its own session that holds
the read end of a pipe only the arena holds the other end of, and waits. When the arena's
process ends, normally or not, the pipe reads end of file; the guardian thaws, kills and
removes whatever is left in the arena's folders (none, after a normal end) and exits.

``python -m arena.sandbox._guardian NAME``: NAME is the arena's folder in each hierarchy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from ._cgroups import CgroupLayout, find_cgroups

_lock = threading.Lock()
#: (pid, folder name) of the layouts this process guards, and the write ends it holds
_guarded: dict[tuple[int, str], int] = {}


def guard(layout: CgroupLayout) -> None:
    """Start the guardian of ``layout``'s folders, once per process and folder name. Raises
    :class:`OSError` where it cannot be started (the caller then makes no cgroup)."""
    key = (os.getpid(), layout.name)
    with _lock:
        if key in _guarded:
            return
        read_end, write_end = os.pipe()  # both close on exec: no bot inherits the write end
        try:
            subprocess.Popen([sys.executable, "-m", "arena.sandbox._guardian", layout.name], stdin=read_end,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                             cwd="/")
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        _guarded[key] = write_end


def main() -> None:
    name = sys.argv[1]
    while os.read(0, 4096):
        pass  # the arena writes nothing: this returns at end of file, when its process is gone
    layout = find_cgroups(name)
    if layout is not None:
        layout.close()


if __name__ == "__main__":
    main()
