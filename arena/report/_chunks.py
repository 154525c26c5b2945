"""Many games' frames packed together: shredded into columns, deflated, then text.

Deflate finds repeats only within 32 KB, and one game's frames are full of values that
repeat in every other game (the same keys, cards, events). So the games of a report travel
in *chunks* of many games, and within a chunk every value is moved into a *column* by where
it belongs (public key ``discard``, event type ``draw``, the actions...): each column holds
one kind of value from every frame of every game in the chunk, which deflate compresses far
better than whole frames one after another (figures in ``BENCHMARKS.md``). A chunk is

- ``g``: per game, its header (``game``, ``players``, ``seed``, ``options``, ``meta``) and
  ``n``, its number of frames;
- ``k``: the *slots*, ``[part, seat, key]``: part ``p``/``h``/``s`` (a key of that part of
  a frame's delta, ``seat`` for ``s``), or ``e`` (an event, ``key`` its ``type``);
- ``r``: per frame (every game's frames in order), the slot numbers it fills, in order;
- ``c``: the columns by name (part + ``:`` + key; seats share a column), plus ``w`` and
  ``a``, which every frame has; each made columnar inside too (:func:`transpose`).

Decoding takes each frame's slots in order and the next value of each slot's column:
:func:`unshred` here, ``ArenaView.chunkReader`` in the browser (one game at a time). The deflated bytes become text
with :func:`to_text` (7 bits a character, not base64's 6).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import numpy as np

#: the 7-bit values a page cannot hold as themselves inside a script element: NUL (the
#: parser replaces it), CR (newlines are normalised) and "<" (could close the element)
_UNSAFE = (0x00, 0x0D, 0x3C)
#: an unsafe value is written as one character from here: U+0100 + (its index << 7 | the
#: next 7 bits), two bytes in UTF-8 for 14 bits of data; as the very last value, alone:
#: U+0100 + _LONE + its index
_ESCAPE = 0x100
_LONE = len(_UNSAFE) << 7


def _column(part: str, key: Any) -> str:
    return f"{part}:{'' if key is None else key}"


def _event_type(event: list[Any]) -> str | None:
    data = event[0]
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def shred(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Games (headers with their ``frames``, see :mod:`._frames`) as one chunk of columns."""
    slots: dict[tuple[str, int | None, Any], int] = {}
    columns: dict[str, list[Any]] = {"w": [], "a": []}
    rows: list[list[int]] = []
    headers = []

    def put(slot: tuple[str, int | None, Any], value: Any, row: list[int]) -> None:
        row.append(slots.setdefault(slot, len(slots)))
        columns.setdefault(_column(slot[0], slot[2]), []).append(value)

    for game in games:
        frames = game["frames"]
        headers.append({**{key: value for key, value in game.items() if key != "frames"}, "n": len(frames)})
        for frame in frames:
            row: list[int] = []
            for part in ("p", "h"):
                for key, value in frame[part].items():
                    put((part, None, key), value, row)
            for seat, change in enumerate(frame["s"]):
                for key, value in change.items():
                    put(("s", seat, key), value, row)
            for event in frame["e"]:
                put(("e", None, _event_type(event)), event, row)
            columns["w"].append(frame["w"])
            columns["a"].append(frame["a"])
            rows.append(row)
    return {"g": headers, "k": [list(slot) for slot in slots], "r": rows,
            "c": {name: transpose(values) for name, values in columns.items()}}


def unshred(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    """The inverse of :func:`shred` (after a JSON round trip): the games with their frames."""
    cursors = {name: iter(untranspose(column)) for name, column in chunk["c"].items()}
    rows = iter(chunk["r"])
    games = []
    for header in chunk["g"]:
        game = {key: value for key, value in header.items() if key != "n"}
        frames = []
        for _ in range(header["n"]):
            frame: dict[str, Any] = {"p": {}, "h": {}, "s": [{} for _ in range(header["players"])],
                                     "w": next(cursors["w"]), "a": next(cursors["a"]), "e": []}
            for number in next(rows):
                part, seat, key = chunk["k"][number]
                value = next(cursors[_column(part, key)])
                if part == "e":
                    frame["e"].append(value)
                elif part == "s":
                    frame["s"][seat][key] = value
                else:
                    frame[part][key] = value
            frames.append(frame)
        game["frames"] = frames
        games.append(game)
    return games


def transpose(values: list[Any]) -> Any:
    """A column made columnar inside: if every value is a list of one length, or a dict with
    the same keys in the same order, the column becomes ``{"L": [column per index]}`` or
    ``{"D": [keys, [column per key]]}``, each transposed again (an event column becomes its
    fields' columns: every ``card`` next to the other cards). Otherwise the plain list.
    (Lists of varying lengths, as lengths + items, made Dead Man's Draw and Karibik no smaller.)
    Inverse: :func:`untranspose` (``ArenaView.untranspose``)."""
    first = values[0] if values else None
    if isinstance(first, (list, tuple)) and first and all(
            isinstance(value, (list, tuple)) and len(value) == len(first) for value in values):
        return {"L": [transpose([value[index] for value in values]) for index in range(len(first))]}
    if isinstance(first, dict) and first:
        keys = list(first)
        if all(isinstance(value, dict) and list(value) == keys for value in values):
            return {"D": [keys, [transpose([value[key] for value in values]) for key in keys]]}
    return values


def untranspose(column: Any) -> list[Any]:
    """The values of a column that :func:`transpose` made (after a JSON round trip)."""
    if isinstance(column, list):
        return column
    if "L" in column:
        return [list(items) for items in zip(*map(untranspose, column["L"]))]
    keys, parts = column["D"]
    return [dict(zip(keys, items)) for items in zip(*map(untranspose, parts))]


def deflate(chunk: dict[str, Any]) -> bytes:
    """Compact JSON of ``chunk``, gzip-compressed (what ``DecompressionStream("gzip")`` reads)."""
    raw = json.dumps(chunk, separators=(",", ":")).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, 31, 9)  # wbits 31: the gzip container
    return packer.compress(raw) + packer.flush()


def to_text(data: bytes) -> str:
    """``data`` as text that can sit inside a ``<script>`` element of a UTF-8 page.

    The bits are cut into 7-bit values, most significant first (the last one padded with
    zeros); a value is its own ASCII character unless it is unsafe (:data:`_UNSAFE`), when it
    and the value after it become one character U+0100 + (unsafe index << 7 | next value), or,
    at the very end, U+0100 + 384 + unsafe index. About 1.15 characters a byte (base64: 1.33).
    Inverse: :func:`from_text` and the viewer's ``ArenaView.fromText``.
    """
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    groups = -(-len(bits) // 7)
    bits = np.concatenate([bits, np.zeros(groups * 7 - len(bits), dtype=np.uint8)]).reshape(groups, 7)
    values = (bits.astype(np.uint16) << np.arange(6, -1, -1, dtype=np.uint16)).sum(axis=1, dtype=np.uint16)
    unsafe = np.isin(values, _UNSAFE)
    if not unsafe.any():
        return values.astype(np.uint8).tobytes().decode("ascii")
    out: list[str] = []
    start = 0
    index = {value: number for number, value in enumerate(_UNSAFE)}
    positions = np.flatnonzero(unsafe)
    cursor = 0
    # Unsafe values are rare (3 in 128): step from one to the next, slicing the safe runs.
    while cursor < len(positions):
        at = int(positions[cursor])
        if at < start:  # taken as the "next value" of the previous escape
            cursor += 1
            continue
        out.append(values[start:at].astype(np.uint8).tobytes().decode("ascii"))
        if at + 1 < len(values):
            code = index[int(values[at])] << 7 | int(values[at + 1])
        else:
            code = _LONE + index[int(values[at])]
        out.append(chr(_ESCAPE + code))
        start = at + 2
        cursor += 1
    out.append(values[start:].astype(np.uint8).tobytes().decode("ascii"))
    return "".join(out)


def from_text(text: str, length: int | None = None) -> bytes:
    """The inverse of :func:`to_text` (``length``: bytes to keep; default, what the bits hold)."""
    values: list[int] = []
    for char in text:
        code = ord(char) - _ESCAPE
        if code < 0:
            values.append(code + _ESCAPE)
        elif code >= _LONE:
            values.append(_UNSAFE[code - _LONE])
        else:
            values += [_UNSAFE[code >> 7], code & 0x7F]
    bits = np.array([(value >> shift) & 1 for value in values for shift in range(6, -1, -1)], dtype=np.uint8)
    data = np.packbits(bits[:len(bits) // 8 * 8]).tobytes()
    return data if length is None else data[:length]


def pack_chunk(games: list[dict[str, Any]]) -> str:
    """Games with their frames as the text of one chunk element."""
    return to_text(deflate(shred(games)))


def unpack_chunk(text: str) -> list[dict[str, Any]]:
    """The games of a chunk's text (the Python twin of the viewer's ``ArenaView.loadChunk``)."""
    return unshred(json.loads(zlib.decompress(from_text(text), 47)))
