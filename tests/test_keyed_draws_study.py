"""The keyed-draws study patches the engine's rules in process: the patch must take effect, keep
every game a game of the rules (each card drawn once), couple draws by their key, and leave
the engine exactly as it was (the tests after it share the process)."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import keyed_draws_study as study  # noqa: E402
from benchmarks.bench_variance_play import mixed_policy, play  # noqa: E402

GAME = "dead-mans-draw"


def _draws(seed: int) -> list[str]:
    table = [mixed_policy(GAME, 0.0), mixed_policy(GAME, 0.15, fixed=True)]
    final, _ = play(GAME, table, seed)
    return [event.data["card"] for event in final.log if event.data.get("type") == "draw"]


def test_keyed_draws_take_effect_deal_each_card_once_and_are_undone():
    before = [_draws(seed) for seed in (7000, 7001, 7002)]
    study.keyed(True)
    try:
        keyed = [_draws(seed) for seed in (7000, 7001, 7002)]
        assert keyed == [_draws(seed) for seed in (7000, 7001, 7002)]  # by the deal alone
    finally:
        study.keyed(False)
    assert keyed != before
    for cards in keyed:
        assert len(cards) > 20 and len(set(cards)) == len(cards)  # one box: a card comes once
    assert [_draws(seed) for seed in (7000, 7001, 7002)] == before


def test_the_first_draw_is_the_card_its_key_names():
    from engines import get_game
    from engines.dead_mans_draw._cards import CARD_NAME

    for seed in (7000, 7001, 7002):
        pile = get_game(GAME).new_state(2, seed, {}).draw
        state = type("S", (), {"_secret": ",".join(map(str, pile))})()
        study.keyed(True)
        try:
            first = _draws(seed)[0]
        finally:
            study.keyed(False)
        assert first == CARD_NAME[study._keyed_card(state, "1.0", set(pile))]
        assert seed != 7000 or first != CARD_NAME[pile[-1]]  # not the shuffled pile's top


def test_a_key_names_the_same_card_wherever_that_card_is_still_there():
    state = type("S", (), {})()
    state._secret = "deal"
    deck = set(study.DECK)
    card = study._keyed_card(state, "3.1", deck)
    for gone in random.Random(1).sample(sorted(deck - {card}), 10):
        assert study._keyed_card(state, "3.1", deck - {gone}) == card
    assert study._keyed_card(state, "3.1", deck - {card}) != card


def test_the_study_runs_at_smoke_size():
    today, keyed = study.play_blocks(False, 4, 0.15), study.play_blocks(True, 4, 0.15)
    assert today.shape == keyed.shape == (4, 2) and set(today.ravel()) | set(keyed.ravel()) <= {0.0, 0.5, 1.0}
    assert study.rules.draw_top is study.ORIGINAL["draw_top"]
