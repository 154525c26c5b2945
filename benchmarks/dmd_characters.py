"""How much each Dead Man's Draw character is worth, measured: the share of points its owner
scores in self-play of the search's playout policy (``bots.dead_mans_draw._playout``), each
seat taking one of its dealt pair at random. It orders ``CHARACTER_RANK``, which the
heuristic and the search bots pick their character by at 2 players (``CHARACTER_RANK_MANY``
at more, measured at 4; bots/README.md, "Dead Man's Draw's characters, measured").

    PYTHONPATH=. python benchmarks/dmd_characters.py --games 200000            # 2 players, default options
    PYTHONPATH=. python benchmarks/dmd_characters.py --games 60000 --mermaid-effect    # the variant: Siren too
    PYTHONPATH=. python benchmarks/dmd_characters.py --games 40000 --players 4

Prints each character's share with its 95% interval, by share, beside its place in the
shipped order for that many players; then the share of points a seat wins choosing from its pair by
each order (against a seat choosing at random), from the table. Seeds 2*10^6 and up.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.dead_mans_draw._heuristic import character_rank  # noqa: E402
from bots.dead_mans_draw._playout import act  # noqa: E402
from engines import get_game  # noqa: E402

SEED_BASE = 2 * 10**6


def shares(games: int, players: int, options: dict, first: int = 0) -> tuple[Counter, Counter]:
    """(points, seats) per character over ``games`` playout-policy games from seed ``first``."""
    game = get_game("dead-mans-draw")
    resolved = game.resolve_options(options)
    points: Counter = Counter()
    seats: Counter = Counter()
    for number in range(first, first + games):
        state = game.new_state(players, SEED_BASE + number, resolved)
        rng = random.Random(number)
        if state.phase == "characters" and state.acting:
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        while state.acting:
            state.apply_checked({state.acting[0]: act(state, rng)})
        ranks = state.outcome().ranks
        for seat, character in enumerate(state.chars):
            behind = sum(1 for other in range(players) if other != seat and ranks[seat] < ranks[other])
            level = sum(1 for other in range(players) if other != seat and ranks[seat] == ranks[other])
            points[character] += (behind + 0.5 * level) / (players - 1)
            seats[character] += 1
    return points, seats


def chosen_share(share: dict[str, float], order) -> float:
    """The mean share of a seat that picks from every possible pair by ``order``."""
    pairs = list(itertools.combinations(sorted(share), 2))
    place = {name: order.index(name) if name in order else len(order) for name in share}
    return sum(share[min(pair, key=place.__getitem__)] for pair in pairs) / len(pairs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--mermaid-effect", action="store_true")
    args = parser.parse_args(argv)
    points, seats = shares(args.games, args.players, {"mermaid_effect": args.mermaid_effect})
    share = {name: points[name] / seats[name] for name in seats}
    shipped = character_rank(args.players)
    print(f"{args.games} games, {args.players} players{', Mermaid effect' if args.mermaid_effect else ''}")
    print(f"{'character':20s} share   95% interval     seats   shipped place")
    for name in sorted(share, key=share.__getitem__, reverse=True):
        p, n = share[name], seats[name]
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        place = shipped.index(name) + 1 if name in shipped else "-"
        print(f"{name:20s} {p:.3f}  [{p - half:.3f}, {p + half:.3f}]  {n:7d}   {place}")
    measured = sorted(share, key=share.__getitem__, reverse=True)
    print(f"picking from the pair: by the shipped order {chosen_share(share, shipped):.3f}, "
          f"by this table {chosen_share(share, measured):.3f}, at random {sum(share.values()) / len(share):.3f}")
    print("order: " + ", ".join(f'"{name}"' for name in measured))


if __name__ == "__main__":
    main()
