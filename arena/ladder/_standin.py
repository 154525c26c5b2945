"""A stand-in for the ladder's intake until its own module lands (``_intake.py``): the same
signature, the simplest behaviour. Delete this module once it is on main."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Admission:
    passed: bool
    bot_dir: Path | None
    report: str


async def admit(data: bytes, workdir: Path, game: str, players: int, *, build_timeout_s: float = 120,
                sandbox: str = "auto") -> Admission:
    """Unpack, no build, then two games at ``players`` seats against the reference random bot:
    any fault of the bot refuses it."""
    from contextlib import AsyncExitStack

    from engines import get_game

    from .._checkbot import REFERENCE
    from .._manifest import ManifestError, load_manifest
    from .._match import MatchSettings, play_match
    from .._player import open_player
    from .._sandbox import detect_sandbox
    from ._archive import ArchiveError, unpack

    try:
        bot_dir = unpack(data, workdir)
        spec = load_manifest(bot_dir / "bot.toml")
    except (ArchiveError, ManifestError) as error:
        return Admission(False, None, f"refused: {error}")
    for path in [workdir, *workdir.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode | 0o444 | (0o111 if path.is_dir() or mode & 0o100 else 0))
    box = detect_sandbox(sandbox)
    settings = MatchSettings()
    try:
        async with AsyncExitStack() as stack:
            bot = await stack.enter_async_context(open_player(spec, 10, sandbox=box))
            if not bot.usable:
                return Admission(False, None, f"FAIL  the bot does not start: {bot.failure.detail}\n"
                                              f"stderr: {bot.stderr_tail()[-400:]}")
            others = [await stack.enter_async_context(open_player(REFERENCE, 10, sandbox=box))
                      for _ in range(players - 1)]
            for number in range(2):
                seat = number % players
                seats = others[:seat] + [bot] + others[seat:]
                result = await play_match(get_game(game), seats, seed=1000 + number, options={}, settings=settings)
                faults = [f for f in result.faults if f.seat == seat]
                if faults:
                    return Admission(False, None, f"FAIL  game {number + 1}, seat {seat}: {faults[0].kind.value}: "
                                                  f"{faults[0].detail}\nstderr: {faults[0].stderr_tail[-400:]}")
    finally:
        box.close()
    return Admission(True, bot_dir, f"PASS  2 games of {game} at {players} seats without a fault")
