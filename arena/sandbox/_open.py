"""The sandbox a command or the ladder runs its bots in: chosen, opened and closed.

:func:`open_sandbox` turns ``--sandbox MODE`` into a :class:`Sandbox` and cleans up its cgroup
folders on exit; :func:`cgroups_warning` is the line a tournament or a ladder starts with when
some cgroup protection is missing on this machine.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ._detect import detect_sandbox
from ._sandbox import Sandbox, SandboxError


@contextlib.contextmanager
def open_sandbox(mode: str, allow_root: bool = False) -> Iterator[Sandbox]:
    """The sandbox for ``--sandbox MODE`` (``auto``, ``bwrap`` or ``none``), cleaned up (cgroup
    folders) on exit; ``allow_root``: ``--allow-root-bots``. Raises :class:`SandboxError` for an
    unknown mode, or ``bwrap`` where bubblewrap does not work."""
    try:
        sandbox = detect_sandbox(str(mode), allow_root)
    except (ValueError, RuntimeError) as error:
        raise SandboxError(str(error)) from None
    try:
        yield sandbox
    finally:
        sandbox.close()


def cgroups_warning(sandbox: Sandbox) -> str | None:
    """The warning line a tournament starts with when some cgroup protection is missing here
    (not root, or a controller not writable), or ``None``."""
    missing = sandbox.missing_cgroups()
    if not missing:
        return None
    return (f"warning: missing protections (`arena doctor` says why): {'; '.join(missing)}: bots can slow "
            f"each other down or take the machine's memory")
