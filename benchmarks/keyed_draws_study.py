"""Would a duplicate pair share more of Dead Man's Draw's luck if the cards came by position
instead of from one shuffled pile? (issue 35: the block unit alone gives 1.07-1.11x.)

Today a deal is one shuffled draw pile. Both games of a duplicate pair start from it, but as
soon as the two bots stop drawing at different points, every later card moves to another
turn, and the rest of the two games share nothing. *Keyed draws* deal the same cards by place
in the game instead: the i-th draw of the game's t-th turn takes the first card, in an order
drawn from ``(deal, t, i)`` alone, that is still in the pile (rejection sampling over the
deck). Each draw is still uniform over the cards left, so every single game has the rules'
law; but the two games of a pair now draw the same card at the same turn and place unless that
card has already gone. The Oracle's and the Seer's looks fix the top cards the same way
before they are shown, and a Map's or a bonus's random cards from the discard pile are keyed by
the turn too.

Keyed draws are patched into the engine here for the study only (``keyed(True)``); the engine
is not changed. The games are ``bench_variance.py``'s (heuristic A against B making a random
move, a function of what it sees, in 15 % of its decisions; seeds 7000 and up), played both
ways. Printed: games to a 95 % verdict of the block unit, against today's plain duplicate, for
today's pile and for keyed draws, at the same expected score (a game's law is the same both
ways, so only the spread differs), with bootstrap 95 % intervals over blocks.

    PYTHONPATH=. python benchmarks/keyed_draws_study.py --blocks 3000

Figures: BENCHMARKS.md, "Keyed draws".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines.dead_mans_draw._abilities as abilities  # noqa: E402
import engines.dead_mans_draw._rules as rules  # noqa: E402
from benchmarks.bench_variance_play import duplicate_block, mixed_policy  # noqa: E402
from engines.dead_mans_draw._cards import CARD_NAME  # noqa: E402

GAME = "dead-mans-draw"
ORIGINAL = {"draw_top": rules.draw_top, "start_turn": rules.start_turn, "take_random": rules.take_random,
            "oracle": abilities.oracle}
DECK = sorted(CARD_NAME)


def _keys(state) -> None:
    """Give a state its deal's secret (from the pile as dealt) and turn counters, once."""
    if not hasattr(state, "_secret"):
        state._secret = ",".join(map(str, state.draw))
        state._turn_number = state._draw_number = state._random_number = 0


def _keyed_card(state, key: str, allowed: set[int]) -> int:
    """The first card of ``key``'s order over the deck that is in ``allowed`` (uniform over
    ``allowed``; the same card for the same key wherever that card is still allowed)."""
    rng = random.Random(f"{state._secret}|{key}")
    while True:
        card = DECK[rng.randrange(len(DECK))]
        if card in allowed:
            return card


def _fix_top(state, count: int) -> None:
    """Fix the top ``count`` cards of the draw pile by key, below those some seat knows."""
    draw = state.draw
    for depth in range(max(state.known), min(count, len(draw))):
        card = _keyed_card(state, f"{state._turn_number}.{state._draw_number + depth}", set(draw[:len(draw) - depth]))
        at, top = draw.index(card), len(draw) - 1 - depth
        draw[at], draw[top] = draw[top], draw[at]


def draw_top(state) -> int:
    _keys(state)
    _fix_top(state, 1)
    state._draw_number += 1
    return ORIGINAL["draw_top"](state)


def start_turn(state) -> None:
    _keys(state)
    state._turn_number += 1
    state._draw_number = 0
    ORIGINAL["start_turn"](state)


def oracle(state, index: int) -> None:
    _keys(state)
    _fix_top(state, 3 if abilities.has(state, state.turn, "seer") else 1)
    ORIGINAL["oracle"](state, index)


def take_random(state, count: int) -> list[int]:
    _keys(state)
    state._random_number += 1
    discard, taken = state.discard, []
    for j in range(min(count, len(discard))):
        card = _keyed_card(state, f"{state._turn_number}.r{state._random_number}.{j}", set(discard))
        at = discard.index(card)
        discard[at], discard[-1] = discard[-1], discard[at]
        taken.append(discard.pop())
    return taken


def keyed(on: bool) -> None:
    """Patch keyed draws into the engine's rules (``on``), or put its own back."""
    use = {"draw_top": draw_top, "start_turn": start_turn, "take_random": take_random, "oracle": oracle} \
        if on else ORIGINAL
    for module in (rules, abilities):
        for name in ("draw_top", "start_turn", "take_random"):
            setattr(module, name, use[name])
    abilities.oracle = use["oracle"]
    for table in (abilities.TRIGGERS, abilities.TASKS, abilities.RESOLVERS):
        for key, function in list(table.items()):
            if function.__name__ in use:
                table[key] = use[function.__name__]


def play_blocks(on: bool, blocks: int, share: float) -> np.ndarray:
    """A's score in each game of ``blocks`` duplicate pairs, shape (blocks, 2)."""
    keyed(on)
    try:
        table = {"A": mixed_policy(GAME, 0.0), "B": mixed_policy(GAME, share, fixed=True)}
        rows = []
        for seed in range(7000, 7000 + blocks):
            row = []
            for game in duplicate_block(GAME, ["A", "B"], table, seed):
                a = game["seats"].index("A")
                mine, theirs = game["ranks"][a], game["ranks"][1 - a]
                row.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
            rows.append(row)
        return np.array(rows)
    finally:
        keyed(False)


def fewer_games(today: np.ndarray, keyed_blocks: np.ndarray) -> tuple[float, float]:
    """(keyed block unit, today's block unit) games to a verdict, as fewer than today's plain
    duplicate at the same expected score: var(game) / (2 var(block mean))."""
    plain = today.reshape(-1).var(ddof=1)
    return (plain / (2 * keyed_blocks.mean(axis=1).var(ddof=1)),
            plain / (2 * today.mean(axis=1).var(ddof=1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=3000)
    parser.add_argument("--share", type=float, default=0.15)
    args = parser.parse_args()
    if args.blocks < 2:
        parser.error("--blocks must be at least 2 (the intervals resample blocks)")
    if not 0 <= args.share <= 1:
        parser.error("--share must be from 0 to 1")
    start = time.process_time()
    today = play_blocks(False, args.blocks, args.share)
    keyed_blocks = play_blocks(True, args.blocks, args.share)
    rng = np.random.default_rng(1)
    point = fewer_games(today, keyed_blocks)
    boot = np.array([fewer_games(today[rng.integers(0, args.blocks, args.blocks)],
                                 keyed_blocks[rng.integers(0, args.blocks, args.blocks)]) for _ in range(2000)])
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    print(f"{args.blocks} blocks, B {args.share:.0%} random (fixed): A {today.mean():.3f} today, "
          f"{keyed_blocks.mean():.3f} keyed; {time.process_time() - start:.0f} s CPU")
    print("fewer games than today's plain duplicate (block unit, same expected score):")
    print(f"  today's pile  {point[1]:.2f}x [{low[1]:.2f}, {high[1]:.2f}]")
    print(f"  keyed draws   {point[0]:.2f}x [{low[0]:.2f}, {high[0]:.2f}]")


if __name__ == "__main__":
    main()
