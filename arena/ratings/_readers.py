"""Results files: PGN (two-player) and JSON lines in, pairwise PGN out."""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterable
from typing import IO

from ._results import GameRecord, record_problem, trusted_record

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_RANKS = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}


class ResultsFileError(ValueError):
    """A results file that cannot be read.

    The message is ``"<file>:<line>: <problem>"``; the parts are also kept as
    ``path``, ``line`` (1-based) and ``problem``.
    """

    def __init__(self, path: str, line: int, problem: str) -> None:
        super().__init__(f"{path}:{line}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem


def read_jsonl(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Read games from a JSON-lines file, one game per line.

    Each line is an object ``{"players": [names by seat], "ranks": [rank per
    seat, 1 = best]}`` with an optional ``"block"`` (string or null); other
    keys are ignored, blank lines skipped, a UTF-8 byte order mark accepted.

    Raises:
        ResultsFileError: a line that is not UTF-8 or not JSON, not an object,
            lacks ``players`` or ``ranks``, or breaks a :class:`GameRecord`
            rule (e.g. ``results.jsonl:17: "ranks" has 3 entries but
            "players" has 4``).
        OSError: the file cannot be opened.
    """
    name = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    records = []
    for number, raw in enumerate(data.removeprefix(b"\xef\xbb\xbf").split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ResultsFileError(name, number, "not UTF-8 text") from None
        if line.strip():
            records.append(jsonl_record(name, number, line))
    return records


def jsonl_record(name: str, number: int, line: str) -> GameRecord:
    """The record on one line of a JSON-lines file (rules of :func:`read_jsonl`)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ResultsFileError(name, number, f"not valid JSON ({exc.msg})") from None
    if not isinstance(obj, dict):
        raise ResultsFileError(
            name, number, f'expected an object {{"players": [...], "ranks": [...]}}, got {type(obj).__name__}'
        )
    for key in ("players", "ranks"):
        if key not in obj:
            raise ResultsFileError(name, number, f'missing "{key}"')
        if not isinstance(obj[key], list):
            raise ResultsFileError(name, number, f'"{key}" is not a list')
    block = obj.get("block")
    players, ranks = tuple(obj["players"]), tuple(obj["ranks"])
    problem = record_problem(players, ranks, block)
    if problem is not None:
        raise ResultsFileError(name, number, problem)
    return trusted_record(players, ranks, block)


def decode_text(data: bytes) -> str:
    """Bytes of a text results file as text: UTF-8 (a byte order mark dropped), else Latin-1.

    Latin-1 decodes any bytes, so an old PGN with accented player names
    (cutechess and many chess databases write Latin-1) reads as it was meant.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_pgn(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Read two-player games from a PGN file (e.g. written by cutechess-cli).

    Uses the ``White``, ``Black`` and ``Result`` tags of each game; move
    text, ``{...}`` comments (also over several lines), ``;`` comments and
    ``%`` escape lines are skipped. ``1-0``, ``0-1`` and ``1/2-1/2`` become
    ranks; unfinished games (``*``) are left out. Seat order: White first.
    The file is UTF-8 (a byte order mark is dropped) or, failing that,
    Latin-1.

    Raises:
        ResultsFileError: a malformed tag line, a game without a ``White``,
            ``Black`` or ``Result`` tag, an unknown result, or a player
            against itself (the line is that of the game's first tag).
        OSError: the file cannot be opened.
    """
    name = os.fspath(path)
    with open(path, "rb") as f:
        return read_pgn_text(name, decode_text(f.read()))


def read_pgn_text(name: str, text: str) -> list[GameRecord]:
    """:func:`read_pgn` of text already read; ``name`` is used in errors."""
    records: list[GameRecord] = []
    tags: dict[str, str] = {}
    start = 0  # line of the current game's first tag; 0 = no game open
    in_moves = False
    in_comment = False
    gap = False

    def finish() -> None:
        for key in ("White", "Black", "Result"):
            if key not in tags:
                raise ResultsFileError(name, start, f'game has no "{key}" tag')
        result = tags["Result"]
        if result == "*":
            return
        if result not in _RANKS:
            raise ResultsFileError(
                name, start, f'Result "{result}" is not one of "1-0", "0-1", "1/2-1/2", "*"'
            )
        white, black = tags["White"], tags["Black"]
        problem = record_problem((white, black), _RANKS[result], None)
        if problem is not None:
            raise ResultsFileError(name, start, problem)
        records.append(GameRecord((white, black), _RANKS[result]))

    for number, raw in enumerate(io.StringIO(text), start=1):
        line = raw.strip()
        if in_comment:
            end = line.find("}")
            if end < 0:
                continue
            in_comment = False
            line = line[end + 1 :].strip()
        elif line.startswith("%"):
            continue
        elif line.startswith("["):
            if in_moves or gap:  # a new tag section: the previous game is complete
                finish()
                tags, in_moves, gap = {}, False, False
            match = _TAG.match(line)
            if match is None:
                raise ResultsFileError(name, number, f"not a PGN tag pair: {line[:60]}")
            if not tags:
                start = number
            value = re.sub(r"\\(.)", r"\1", match.group(2))
            tags[match.group(1)] = value
            continue
        if not line:
            gap = bool(tags) and not in_moves  # blank line after a tag section
            continue
        # move text: drop comments, note that there was some
        while line:
            brace, semi = line.find("{"), line.find(";")
            if semi >= 0 and (brace < 0 or semi < brace):
                line = line[:semi]
                continue
            if brace < 0:
                break
            end = line.find("}", brace)
            if end < 0:
                in_comment = True
                line = line[:brace]
                break
            line = line[:brace] + " " + line[end + 1 :]
        if line.strip():
            if not tags:
                raise ResultsFileError(name, number, "move text before any tag pair")
            in_moves = True
    if tags:
        finish()
    return records


def write_pgn(records: Iterable[GameRecord], file: str | os.PathLike[str] | IO[str]) -> int:
    """Write the pairwise decomposition of ``records`` as PGN games.

    Each pair of seats ``a < b`` of each game becomes one PGN game with the
    earlier seat as White: ``1-0`` if White ranked better, ``0-1`` if worse,
    ``1/2-1/2`` if level. A k-player game thus gives k(k-1)/2 PGN games, and
    Ordo or BayesElo on the file fits the same Bradley-Terry model as
    :func:`fit_bradley_terry` (with white advantage 0). ``Round`` is
    ``"<game>.<pair>"``, both 1-based. There are no moves.

    Args:
        records: the games.
        file: a path (created or overwritten) or an open text stream.

    Returns:
        The number of PGN games written.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8") as f:
            return write_pgn(records, f)
    written = 0
    for g, rec in enumerate(records, start=1):
        pair = 0
        for a in range(len(rec.players)):
            for b in range(a + 1, len(rec.players)):
                pair += 1
                ra, rb = rec.ranks[a], rec.ranks[b]
                result = "1-0" if ra < rb else "0-1" if ra > rb else "1/2-1/2"
                file.write(
                    '[Event "pirate-arena"]\n[Site "?"]\n[Date "????.??.??"]\n'
                    f'[Round "{g}.{pair}"]\n[White "{_escape(rec.players[a])}"]\n'
                    f'[Black "{_escape(rec.players[b])}"]\n[Result "{result}"]\n\n{result}\n\n'
                )
                written += 1
    return written


def _escape(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"')
