"""The random starter kits (examples/bots/*-random) play every game legally through the arena.

For each kit and each registered game: full games against the Python random bot, in both
seats and at a bigger table, with no fault; the same seeds give the same games; and every kit
draws the same choices as js-random (they share one generator, seeded with ``bot_seed``).
"""

from dataclasses import replace

import pytest

from engines import game_ids, get_game

from ._kits import KITS, PY_RANDOM, describe, play, prepare

pytestmark = pytest.mark.slow
GAMES = game_ids()
SEEDS = [11, 12]


def _supported(spec, game_id):
    if spec.games is not None and game_id not in spec.games:
        pytest.skip(f"{spec.name} does not play {game_id} yet: its manifest lists {list(spec.games)} "
                    f"(see the TODO in examples/bots/{spec.name}/)")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", list(KITS))
async def test_kit_plays_full_games_without_faults_and_reproducibly(kit, game_id):
    spec = prepare(kit)
    _supported(spec, game_id)
    first = await play(game_id, [spec, PY_RANDOM], SEEDS) + await play(game_id, [PY_RANDOM, spec], SEEDS)
    assert all(not r.faults for r in first), describe(first)
    assert all(r.reason.value == "normal" for r in first), describe(first)
    assert all(any(by_bot for _, _, by_bot in r.moves) for r in first)
    again = await play(game_id, [spec, PY_RANDOM], SEEDS) + await play(game_id, [PY_RANDOM, spec], SEEDS)
    assert [r.replay.steps for r in again] == [r.replay.steps for r in first]
    assert [r.ranks for r in again] == [r.ranks for r in first]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", list(KITS))
async def test_kit_plays_at_a_full_table(kit, game_id):
    spec = prepare(kit)
    _supported(spec, game_id)
    players = min(get_game(game_id).max_players, 4)
    specs = [spec if seat % 2 == 0 else PY_RANDOM for seat in range(players)]
    results = await play(game_id, specs, [5])
    assert not results[0].faults, describe(results)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", [name for name in KITS if name != "js-random"])
async def test_kit_makes_the_same_choices_as_js_random(kit, game_id):
    spec = prepare(kit)
    reference = prepare("js-random")
    _supported(spec, game_id)
    _supported(reference, game_id)
    # bot_seed depends on the bot's name: give both the same one.
    ours = await play(game_id, [replace(spec, name="kit"), PY_RANDOM], SEEDS)
    theirs = await play(game_id, [replace(reference, name="kit"), PY_RANDOM], SEEDS)
    assert [r.replay.steps for r in ours] == [r.replay.steps for r in theirs]
