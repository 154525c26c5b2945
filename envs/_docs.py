"""The numbering and tensor tables of ``docs/environments.md``, generated from the codecs.

    python -m envs._docs          # prints the tables; tests/envs/test_docs.py checks the page has them
"""

from __future__ import annotations

from ._codec import Codec, describe
from ._games import CODECS, codec, resolve

#: the player count the page's tables are printed for
PLAYERS = 2


def numbering(shared: Codec) -> str:
    """One row per run of consecutive ids of one kind."""
    rows = ["| ids | kind | actions |", "|---|---|---|"]
    start = 0
    table = shared.table
    for number in range(1, len(table) + 1):
        if number == len(table) or table[number][0] != table[start][0]:
            kind = table[start][0]
            first, last = describe(table[start][1]), describe(table[number - 1][1])
            span = f"{start}" if number - 1 == start else f"{start}-{number - 1}"
            shown = f"`{first}`" if number - 1 == start else f"`{first}` ... `{last}`"
            rows.append(f"| {span} | `{kind}` | {shown} ({number - start}) |")
            start = number
    return "\n".join(rows)


def layout(shared: Codec) -> str:
    rows = ["| offset | size | segment | what |", "|---|---|---|---|"]
    for name, offset, size, doc in shared.layout.rows():
        rows.append(f"| {offset} | {size} | `{name}` | {doc} |")
    return "\n".join(rows)


def tables() -> dict[str, str]:
    """Per game id: its numbering and tensor tables for :data:`PLAYERS` players, default options."""
    out = {}
    for game_id in CODECS:
        _, players, options = resolve(game_id, PLAYERS, {})
        shared = codec(game_id, players, options)
        out[game_id] = (f"Action numbering, {PLAYERS} players ({shared.num_actions} actions):\n\n{numbering(shared)}\n\n"
                        f"Observation tensor, {PLAYERS} players ({shared.layout.size} floats):\n\n{layout(shared)}\n")
    return out


if __name__ == "__main__":
    for game_id, text in tables().items():
        print(f"## {game_id}\n\n{text}")
