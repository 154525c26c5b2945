"""What no manifest may do: widen a bot's view beyond its own folder (issue 32).

Under bubblewrap a bot sees what its start names (``_view``): its ``cwd``, the files its command
line names, its ``PYTHONPATH``/``NODE_PATH`` entries, its program's installation. A manifest
naming ``/`` there would show the whole host: other entrants' folders, every process's command
line with the deal's seed. :func:`view_widening` says which field of a bot's start would show
more than its own folder, its runtime and the system's folders; the manifest loader refuses it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._plan import PACKAGES, PROJECT_ROOT, installation, of_the_system, program_path, too_wide, within


def view_widening(argv: Sequence[str], cwd: Path, env: Mapping[str, str], own: Path,
                  env_keys: Sequence[str] = ()) -> tuple[str, str] | None:
    """What in a bot's start would show it more than its own folder ``own`` (its manifest's),
    the runtime its program runs on (:func:`runtime_folders`) and the system's folders, as
    ``(field, why)`` (fields: ``cwd``, ``command``, ``env.NAME``), or ``None``. The runtime is
    the arena's Python installation and its packages when the program is that, else the
    folder above the program's ``bin/`` (:func:`installation`).

    ``env_keys``: the variables the manifest itself sets (a ``PATH`` of its own makes its
    program's installation its choice too). Both a path as written and as its links resolve
    are checked: the view shows both (a link in the bot's folder to ``/`` would show ``/``).
    """
    own = Path(os.path.abspath(own))
    reason = too_wide(own)
    if reason:
        return "cwd", f"the bot's folder {own} is {reason}: give the bot a folder of its own"
    allowed = [own]
    program = program_path(argv, cwd, env)
    arenas_python = program is not None and Path(os.path.realpath(program)) == Path(os.path.realpath(sys.executable))
    if program is not None and "/" in argv[0] and not arenas_python and not _allowed(program, allowed):
        return "command", f"its program {argv[0]!r} lies outside the bot's folder"
    if program is not None:
        runtime = installation(program)
        chosen = "/" in argv[0] or "PATH" in env_keys
        for folder in runtime:
            if not of_the_system(folder) and too_wide(folder):
                return "command", f"its program {program} is installed in {folder}, which is {too_wide(folder)}"
            if chosen and not _allowed(folder, allowed) and not arenas_python:
                field = "env.PATH" if "/" not in argv[0] else "command"
                return field, f"its program {program} lies outside the bot's folder {own}"
        allowed += runtime
    allowed += [PROJECT_ROOT / name for name in PACKAGES]
    if not _allowed(Path(cwd), allowed):
        return "cwd", f"{cwd} lies outside the bot's folder {own}"
    for arg in argv[1:]:
        if os.path.isabs(arg) and os.path.exists(arg) and not _allowed(Path(arg), allowed):
            return "command", f"{arg} lies outside the bot's folder {own} and its runtime"
    for key in ("PYTHONPATH", "NODE_PATH"):
        if key not in env_keys:
            continue
        for entry in env.get(key, "").split(os.pathsep):
            if os.path.isabs(entry) and not _allowed(Path(entry), allowed):
                return f"env.{key}", f"{entry} lies outside the bot's folder {own} and its runtime"
    return None


def _allowed(path: Path, allowed: Sequence[Path]) -> bool:
    """Whether ``path``, as written and with its links resolved, lies in the system's folders
    or in one of ``allowed`` (each also as written and resolved)."""
    roots = {Path(os.path.abspath(root)) for root in allowed} | {Path(os.path.realpath(root)) for root in allowed}
    for form in (Path(os.path.abspath(path)), Path(os.path.realpath(path))):
        if not (of_the_system(form) and form != Path("/")) and not any(within(form, root) for root in roots):
            return False
    return True


