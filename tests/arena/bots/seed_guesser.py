"""A bot that tries to learn the deal from its ``start.bot_seed``:
``python seed_guesser.py NAME FILE_SEED``.

It knows its entrant NAME and the tournament file's small FILE_SEED (a bot can often read the
file), and tries every derivation an arena could have used without a secret: the old public
sha256 formulas (``arena match``: bot seed from the game seed; tournaments: game seed from the
file's seed) over small seeds, and the current HMAC formula under empty or guessable keys. At
each ``start`` it writes ``GUESS <game seed> <how> <bot_seed>`` to stderr (``how`` is
``no-match`` when nothing fit: then it guesses the old tournament formula's seed). At ``hello``
it also writes everything of the arena it can see (its environment, every readable command
line), so a test can check that the key is nowhere in it. It plays the first legal action.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sys

SMALL_SEEDS = range(2000)
FILE_SEEDS = range(50)
GUESSABLE_KEYS = [b"", bytes(32), b"key", b"secret", b"seed", b"pirate-arena"]


def old_derived(seed: int, *parts: object, size: int = 8) -> int:
    """The public formula the arena used before (arena/match/_match.py ``derived_seed``, _schedule ``_seed``)."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:size], "big")


def keyed(key: bytes, *parts: object, bits: int = 64) -> int:
    digest = hmac.new(key, "\x1f".join(str(part) for part in parts).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - bits)


def positions(players: int):
    for round_index in range(2):
        for table in range(10):
            for rotation in range(players):
                yield round_index, table, rotation


def guess(bot_seed: int, seat: int, players: int, name: str, file_seed: int) -> tuple[int, str]:
    """The game seed this bot_seed betrays, if any derivation without a secret produced it."""
    for seed in SMALL_SEEDS:
        if old_derived(seed, "bot", seat, name) == bot_seed:
            return seed, "sha256-match"
    for base in sorted({file_seed, *FILE_SEEDS}):
        for round_index, table, rotation in positions(players):
            for deal_rotation in {0, rotation}:
                game_seed = old_derived(base, "deal", round_index, table, deal_rotation, size=6)
                if old_derived(game_seed, "bot", seat, name) == bot_seed:
                    return game_seed, "sha256-tournament"
    for key in [*GUESSABLE_KEYS, str(file_seed).encode(), file_seed.to_bytes(32, "big")]:
        for round_index, table, rotation in positions(players):
            if keyed(key, "bot", f"r{round_index}t{table}s{rotation}", seat, name) == bot_seed:
                return keyed(key, "deal", file_seed, round_index, table, 0, bits=53), "hmac-guessable-key"
    return old_derived(file_seed, "deal", 0, 0, 0, size=6), "no-match"


def what_i_can_see() -> str:
    seen = [f"ENV {sorted(os.environ.items())}"]
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as file:
                    seen.append(f"CMDLINE {pid} {file.read()!r}")
            except OSError:
                pass
    return "\n".join(seen)


def main() -> None:
    from bots.sdk import Bot, run

    name, file_seed = sys.argv[1], int(sys.argv[2])

    class Guesser(Bot):
        games = ("dead-mans-draw",)
        version = "1"

        def __init__(self) -> None:
            self.name = name
            print(what_i_can_see(), file=sys.stderr, flush=True)

        def start(self, message) -> None:
            seed, how = guess(message["bot_seed"], message["seat"], message["players"], name, file_seed)
            print(f"GUESS {seed} {how} {message['bot_seed']}", file=sys.stderr, flush=True)

        def act(self, request):
            return request.legal[0]

    run(Guesser())


if __name__ == "__main__":
    main()
