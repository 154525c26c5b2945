"""Results files of any supported format into :class:`Encoded` arrays, fast.

``load_results`` is what ``arena rate`` calls: it picks the format (from the
extension, else from the content), refuses binary files, and reads JSON Lines
without building a :class:`GameRecord` per game: lines are parsed in chunks
of :data:`CHUNK` as one JSON array each (one C-level call instead of one
Python-level call per line, which was most of the cost), checked column by
column, and laid end to end as entrant indices and ranks. Any chunk that
fails a check is read again line by line with :func:`read_jsonl`'s rules, so
errors still name the file and line.

Reading runs with Python's cyclic garbage collector paused: parsing builds millions of small
lists and dicts, none of them in a cycle, and each batch of new objects set off a collection
that walked all of them again (3.9 s of collections against 1.0 s of parsing for 10^6 games).
"""

from __future__ import annotations

import csv
import gc
import io
import json
import os
from contextlib import contextmanager
from itertools import chain, count, islice
from typing import BinaryIO

import numpy as np

from ._encode import Encoded, encode, from_columns
from ._readers import ResultsFileError, decode_text, jsonl_record, read_pgn_text
from ._results import GameRecord, record_problem

FORMATS = ("pgn", "jsonl", "csv")
CHUNK = 1 << 16  # lines per JSON array: bounds the parsed objects alive at once
ARENA_CSV = ["key", "block", "seed", "seat", "bot", "rank", "score", "reason", "faults"]
_SUFFIX = {".pgn": "pgn", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}
_INT64 = 2**63


def detect_format(path: str | os.PathLike[str], head: bytes) -> str:
    """``pgn``, ``jsonl`` or ``csv``: from the file name's extension, else from its first
    non-blank byte (``[`` PGN tag, ``{`` JSON object) or the arena's CSV header.

    Raises:
        ResultsFileError: a binary file (NUL bytes) or content of no known format.
    """
    name = os.fspath(path)
    if b"\0" in head:
        raise ResultsFileError(name, 1, "a binary file, not PGN, JSON Lines or CSV results")
    suffix = os.path.splitext(name)[1].lower()
    if suffix in _SUFFIX:
        return _SUFFIX[suffix]
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"{"):
        return "jsonl"
    if text.startswith((b"[", b"%", b";")):
        return "pgn"
    if text.startswith(",".join(ARENA_CSV[:3]).encode()):
        return "csv"
    raise ResultsFileError(
        name, 1, "cannot tell the format: not a PGN tag, a JSON object or the arena's CSV header; "
        "name the file *.pgn, *.jsonl or *.csv, or pass --input")


def load_results(path: str | os.PathLike[str], fmt: str = "auto") -> Encoded:
    """Read a results file into :class:`Encoded` arrays.

    Args:
        path: the file.
        fmt: ``auto`` (see :func:`detect_format`), ``pgn``, ``jsonl`` or ``csv``.

    Raises:
        ResultsFileError: as the readers, a binary file, an unknown format, or
            a file without a rated game.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(path, "rb") as f, _collector_paused():
        head = f.read(8192)
        kind = detect_format(name, head) if fmt == "auto" else fmt
        if kind == "jsonl":  # streamed: the file is never held whole
            f.seek(0)
            enc = _jsonl_columns(name, f)
        else:
            text = decode_text(head + f.read())
            enc = _encode_or_none((read_pgn_text if kind == "pgn" else read_arena_csv)(name, text))
    if enc is None:
        raise ResultsFileError(name, 1, f"no rated games found (read as {kind})")
    return enc


@contextmanager
def _collector_paused():
    """Pause the cyclic garbage collector (reference counting still frees everything read)
    and put it back as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _encode_or_none(records: list[GameRecord]) -> Encoded | None:
    return encode(records) if records else None


def read_arena_csv(name: str, text: str) -> list[GameRecord]:
    """Games from ``arena export --format csv`` (one row per seat, rows of a game together).

    Raises:
        ResultsFileError: another header, a bad row, or a game with a bad record.
    """
    rows = csv.reader(io.StringIO(text))
    header = next(rows, None)
    if header != ARENA_CSV:
        raise ResultsFileError(name, 1, f"expected the arena's CSV header {','.join(ARENA_CSV)}")
    games: dict[str, tuple[int, str, list[str], list[int]]] = {}
    for number, row in enumerate(rows, start=2):
        if not row:
            continue
        if len(row) != len(ARENA_CSV):
            raise ResultsFileError(name, number, f"{len(row)} fields, the header has {len(ARENA_CSV)}")
        key, block, _, _, bot, rank = row[:6]
        try:
            value = int(rank)
        except ValueError:
            raise ResultsFileError(name, number, f"rank {rank!r} is not an integer") from None
        _, _, players, ranks = games.setdefault(key, (number, block, [], []))
        players.append(bot)
        ranks.append(value)
    records = []
    for key, (number, block, players, ranks) in games.items():
        problem = record_problem(tuple(players), tuple(ranks), block or None)
        if problem is not None:
            raise ResultsFileError(name, number, f"game {key!r}: {problem}")
        records.append(GameRecord(tuple(players), tuple(ranks), block or None))
    return records


def _jsonl_columns(name: str, f: BinaryIO) -> Encoded | None:
    index: dict[str, int] = {}
    lengths, seats, ranks, blocks = [], [], [], []
    any_block = False
    for lo in count(0, CHUNK):
        chunk = list(islice(f, CHUNK))
        if not chunk:
            break
        if lo == 0:
            chunk[0] = chunk[0].removeprefix(b"\xef\xbb\xbf")
        parsed = _fast_chunk(chunk, index)
        if parsed is None:  # something is off: the careful reader finds the line and the words
            parsed = _careful_chunk(name, chunk, lo, index)
        chunk_lengths, chunk_seats, chunk_ranks, chunk_blocks = parsed
        lengths.append(chunk_lengths)
        seats.append(chunk_seats)
        ranks.append(chunk_ranks)
        blocks.extend(chunk_blocks)
        any_block = any_block or chunk_blocks.count(None) != len(chunk_blocks)
    if not blocks:
        return None
    return from_columns(list(index), np.concatenate(lengths), np.concatenate(seats), np.concatenate(ranks),
                        blocks if any_block else None)


def _fast_chunk(chunk: list[bytes], index: dict[str, int]):
    """Columns of a chunk of lines, or None if any check fails (nothing is added to ``index``)."""
    kept = [line for line in chunk if not line.isspace()]  # file lines are never b""
    if not kept:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), []
    try:
        objs = json.loads(b"[" + b",".join(kept) + b"]")
        if len(objs) != len(kept) or set(map(type, objs)) != {dict}:
            return None  # a line holding two values, or a value that is not an object
        players = [o["players"] for o in objs]
        ranks = [o["ranks"] for o in objs]
    except (ValueError, KeyError):  # JSONDecodeError, UnicodeDecodeError are ValueErrors
        return None
    blocks = [o.get("block") for o in objs]
    if set(map(type, players)) != {list} or set(map(type, ranks)) != {list}:
        return None
    lengths = list(map(len, players))
    if lengths != list(map(len, ranks)) or min(lengths) < 2:
        return None
    flat_names = list(chain.from_iterable(players))
    flat_ranks = list(chain.from_iterable(ranks))
    new = set(flat_names).difference(index)
    if any(type(n) is not str or not n for n in new) or set(map(type, flat_ranks)) != {int}:
        return None
    if not set(map(type, blocks)) <= {str, type(None)}:
        return None
    if min(flat_ranks) < 1 or max(flat_ranks) >= _INT64:
        return None
    rank = np.asarray(flat_ranks, dtype=np.int64)
    trial = dict(index)
    for n in new:
        trial[n] = len(trial)
    seat = np.fromiter(map(trial.__getitem__, flat_names), dtype=np.int64, count=len(flat_names))
    length = np.asarray(lengths, dtype=np.int64)
    if _seated_twice(length, seat):
        return None
    index.update(trial)
    return length, seat, rank, blocks


def _seated_twice(lengths: np.ndarray, seats: np.ndarray) -> bool:
    start = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    for k in np.unique(lengths).tolist():
        rows = np.sort(seats[start[lengths == k][:, None] + np.arange(k)], axis=1)
        if (rows[:, 1:] == rows[:, :-1]).any():
            return True
    return False


def _careful_chunk(name: str, chunk: list[bytes], first: int, index: dict[str, int]):
    lengths, seats, ranks, blocks = [], [], [], []
    for offset, raw in enumerate(chunk):
        number = first + offset + 1
        try:
            line = raw.decode("utf-8").rstrip("\n")
        except UnicodeDecodeError:
            raise ResultsFileError(name, number, "not UTF-8 text") from None
        if not line.strip():
            continue
        rec = jsonl_record(name, number, line)
        lengths.append(len(rec.players))
        seats.extend(index.setdefault(p, len(index)) for p in rec.players)
        ranks.extend(rec.ranks)
        blocks.append(rec.block)
    return (np.asarray(lengths, dtype=np.int64), np.asarray(seats, dtype=np.int64),
            np.asarray(ranks, dtype=np.int64), blocks)
