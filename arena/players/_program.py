"""Before a bot starts: the environment it gets, and whether its program can be found and run
(with the fix for the usual mistakes: a program beside the manifest named without ``./``, a
script without its execute bit)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from ._manifest import BotSpec

#: Environment variables passed through to every bot; everything else comes from the manifest.
PASSED_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "NODE_PATH")


def bot_environment(spec: BotSpec) -> dict[str, str]:
    """The environment a bot starts with (before the sandbox adds its own)."""
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    env.update(spec.env)
    return env


def program_exists(spec: BotSpec) -> bool:
    """Whether the program ``spec`` runs can be found as exec will look for it: a name without
    ``/`` on the bot's ``PATH`` only (never in its folder, as a shell would not), a path from
    its folder."""
    program = spec.argv()[0]
    if "/" not in program:
        return shutil.which(program, path=bot_environment(spec).get("PATH")) is not None
    return os.path.exists(os.path.join(spec.cwd or ".", program))


def missing_program(spec: BotSpec) -> str:
    """Why :func:`program_exists` said no, with the fix for a program beside the manifest."""
    program = spec.argv()[0]
    if "/" not in program and os.path.exists(os.path.join(spec.cwd or ".", program)):
        return (f"could not start {program!r}: no such program on the bot's PATH (a name without '/' is looked "
                f"up there only; for the program in the bot's folder write './{program}')")
    return f"could not start {program!r}: no such program"


def why_not_executable(program: str, cwd: Path | None) -> str | None:
    """Why the file ``program`` names (a path, as the command's first word) cannot be run, or
    ``None``: a regular file without an execute bit (a script saved 0644). A program found on
    ``PATH`` is executable by definition, and exec reports anything else."""
    if "/" not in program:
        return None
    path = Path(cwd or Path.cwd()) / program
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if not stat.S_ISREG(mode) or mode & 0o111:
        return None
    shown = Path(os.path.normpath(path))
    interpreter = _INTERPRETERS.get(shown.suffix)
    how = (f"start it with its interpreter ('command = \"{interpreter} {shown.name}\"')" if interpreter
           else "name its interpreter first in 'command'")
    return f"{shown} is not executable (mode {stat.S_IMODE(mode):04o}): make it so (chmod +x {shown}) or {how}"


#: the interpreter a script's extension suggests, for the hint above
_INTERPRETERS = {".py": "python", ".js": "node", ".rb": "ruby", ".sh": "sh", ".pl": "perl", ".lua": "lua"}
