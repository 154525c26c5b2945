"""An adaptive tournament's file and its rounds, without processes: the config's one-line
errors, the games of a round (keys, deals, seats), the rounds rebuilt from stored results in
any order, the stops (decided, or a bound of rounds or tables), and where the question
stands as the JSON standings give it."""

import json
import random
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena.tournament._adaptive import AdaptivePlan, finishing_orders
from arena.tournament._config import ConfigError, config_from_dict, load_config
from arena.tournament._extend import extend_config

KEY = bytes(range(32))


def adaptive_file(folder: Path, extra: str = 'goal = "top 1"', entrants: int = 4, players: int = 2) -> Path:
    path = folder / "a.toml"
    path.write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = {players}
        format = "adaptive"
        seed = 3
        {extra}
        """) + "".join(f'[[entrants]]\nname = "e{i}"\ncommand = "python -m bots.random"\n' for i in range(entrants)))
    return path


@pytest.mark.parametrize("extra,message", [
    ('goal = "best 3"', """key 'goal' must be 'top K', 'order' or 'elo X' (e.g. "top 3"), got 'best 3'"""),
    ('goal = "top 4"', "key 'goal' asks for the top 4 of 4 entrants: the field needs more than 4 (at least 5)"),
    ('goal = "elo 0"', "key 'goal' must be 'top K', 'order' or 'elo X'"),
    ('goal = "top 1"\nerror = 0.7', "key 'error' must be a number in 0.0001..0.5, got 0.7"),
    ('goal = "top 1"\nerror = "5%"', "key 'error' must be a number in 0.0001..0.5, got '5%'"),
    ('goal = "top 1"\nmargin = -1', "key 'margin' must be a number in 0..1000, got -1"),
    ('goal = "top 1"\nrounds = 51', "key 'rounds' is the most rounds of an adaptive tournament, at most 50"),
    ('goal = "top 1"\ncandidates = ["e0"]', """key 'candidates' is for format = "gauntlet\""""),
    ('', "required key 'goal' is missing"),
])
def test_a_bad_question_is_one_line_naming_the_key(tmp_path, extra, message):
    with pytest.raises(ConfigError) as error:
        load_config(adaptive_file(tmp_path, extra))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_question_belongs_to_the_adaptive_format(tmp_path):
    path = adaptive_file(tmp_path, 'goal = "top 1"\nerror = 0.01\nmargin = 30')
    config = load_config(path)
    assert (config.adaptive.goal, config.adaptive.error, config.adaptive.margin, config.schedule.rounds) == \
           ("top 1", 0.01, 30.0, 50)
    path.write_text(path.read_text().replace('format = "adaptive"', 'format = "round-robin"'))
    with pytest.raises(ConfigError, match="""key 'goal' is for format = "adaptive\""""):
        load_config(path)


def test_the_games_of_a_round_are_duplicate_blocks_with_secret_deals(tmp_path):
    config = load_config(adaptive_file(tmp_path, 'goal = "top 1"', entrants=8, players=4))
    games = AdaptivePlan(config, KEY).games()
    assert len(games) == 2 * 2 * 4  # two partitions of 8 into tables of 4, every rotation
    assert [game.key for game in games[:5]] == ["r0t0s0", "r0t0s1", "r0t0s2", "r0t0s3", "r0t1s0"]
    block = games[:4]
    assert len({game.seed for game in block}) == 1 and block[1].seats == block[0].seats[1:] + block[0].seats[:1]
    assert len({seed for game in block for seed in game.bot_seeds}) == 16
    assert games == AdaptivePlan(config, KEY).games()
    assert games != AdaptivePlan(config, bytes(32)).games()  # the deals come from the database's key
    loose = load_config(adaptive_file(tmp_path, 'goal = "top 1"\nduplicate = false', entrants=8, players=4))
    assert len({game.seed for game in AdaptivePlan(loose, KEY).games()[:4]}) == 4


def test_ties_count_as_every_order_of_the_tied():
    assert finishing_orders([4, 7, 9], [2, 1, 2]) == [((7, 4, 9), 0.5), ((7, 9, 4), 0.5)]
    assert finishing_orders([0, 1], [1, 2]) == [((0, 1), 1.0)]


STRENGTH = {"e0": 9, "e1": 5, "e2": 4, "e3": 3, "e4": 2, "e5": 1}


def ranks_of(seats, upset: bool) -> list[int]:
    """Ranks by STRENGTH; ``upset``: each entrant but e0 as strong as the next stronger one."""
    strength = [STRENGTH[name] + (1.5 if upset and name != "e0" else 0) for name in seats]
    return [1 + sum(other > own for other in strength) for own in strength]


def play_out(plan: AdaptivePlan, shuffle: random.Random | None = None, upsets: int = 4) -> list[list]:
    """Play ``plan`` to its stop, results by STRENGTH with an upset every ``upsets`` games of
    a round (``shuffle``: stored in another order); the rounds' games as played."""
    rounds = []
    while plan.stop is None:
        games = plan.games()
        rounds.append(games)
        results = [(game, ranks_of(game.seats, number % upsets == 0)) for number, game in enumerate(games)]
        if shuffle is not None:
            shuffle.shuffle(results)
        for game, ranks in results:
            plan.add(game.round, game.key, game.seats, ranks)
        plan.advance()
    return rounds


def test_a_decided_entrant_is_not_seated_again_and_the_stop_says_why(tmp_path):
    config = load_config(adaptive_file(tmp_path, 'goal = "top 1"', entrants=6))
    plan = AdaptivePlan(config, KEY)
    undecided, rounds = [set(STRENGTH)], []
    while plan.stop is None:
        games = plan.games()
        rounds.append(games)
        for game in games:
            plan.add(game.round, game.key, game.seats, ranks_of(game.seats, upset=False))
        plan.advance()
        undecided.append(set(plan.undecided()))
    assert len(rounds) > 2 and any(len(before) < 6 for before in undecided[1:-1])  # some decided early
    for games, before in zip(rounds, undecided):
        # two seats a table: a decided entrant would sit only if fewer than two undecided remained
        assert {name for game in games for name in game.seats} <= before
    played = sum(len(games) for games in rounds)
    assert plan.stop == f"decided: top 1 = e0 at error 0.05 after {played} games ({len(rounds)} rounds)"


def test_the_rounds_are_the_same_whatever_order_the_results_came_in(tmp_path):
    config = load_config(adaptive_file(tmp_path, 'goal = "order"\nerror = 0.2\nrounds = 6', entrants=6))
    straight = play_out(AdaptivePlan(config, KEY))
    assert len(straight) == 6 and len({len(games) for games in straight}) > 1
    assert play_out(AdaptivePlan(config, KEY), random.Random(5)) == straight
    # a plan rebuilt from the games of its first three rounds (a resume) is at round 4, the same
    plan = AdaptivePlan(config, KEY)
    for games in straight[:3][::-1]:
        for number, game in enumerate(games):
            plan.add(game.round, game.key, game.seats, ranks_of(game.seats, number % 4 == 0))
    plan.advance()
    assert plan.round == 3 and plan.games() == straight[3]


def test_a_bound_of_rounds_or_tables_stops_it_undecided(tmp_path):
    config = load_config(adaptive_file(tmp_path, 'goal = "order"\nrounds = 2', entrants=6))
    plan = AdaptivePlan(config, KEY)
    rounds = play_out(plan)
    assert len(rounds) == 2
    assert plan.stop.startswith(f"undecided after {plan.look.games} games (2 rounds; rounds = 2): order open: ")
    assert "; likeliest order = e0 > e1 > " in plan.stop
    capped = load_config(adaptive_file(tmp_path, 'goal = "order"\nmax_tables = 8', entrants=6))
    plan = AdaptivePlan(capped, KEY)
    tables = [len(games) // 2 for games in play_out(plan)]
    assert tables[0] == 6 and sum(tables) == 8 and "max_tables = 8" in plan.stop


def test_extend_takes_rounds_up_to_the_looks_and_no_entrants(tmp_path):
    path = adaptive_file(tmp_path, 'goal = "top 1"\nrounds = 10')
    config = config_from_dict(load_config(path).raw, path)
    extension = extend_config(config, 2, rounds=5)
    assert extension.config.schedule.rounds == 15 and extension.config.adaptive == config.adaptive
    with pytest.raises(ConfigError, match=r"--rounds 41 would make 51 rounds; an adaptive tournament has at most 50"):
        extend_config(config, 2, rounds=41)
    bot = tmp_path / "bot.toml"
    bot.write_text('name = "new"\ncommand = "python -m bots.random"\n')
    with pytest.raises(ConfigError, match="an adaptive tournament takes no new entrants"):
        extend_config(config, 2, entrants=[bot])


def test_the_example_file_asks_for_the_best_of_four():
    config = load_config(Path(__file__).parents[2] / "examples" / "adaptive.toml")
    assert (config.adaptive.goal, config.adaptive.error, config.schedule.players) == ("top 1", 0.05, 2)
    games = AdaptivePlan(config, KEY).games()
    assert len(games) == 8 and {name for game in games for name in game.seats} == {
        "py-heuristic", "py-random", "py-random-2", "py-random-3"}


def test_a_round_the_stored_games_went_past_counts_as_played(tmp_path):
    # a database played by another version, whose tables differ: its rounds still count
    config = load_config(adaptive_file(tmp_path, 'goal = "top 1"', entrants=6))
    plan = AdaptivePlan(config, KEY)
    games = plan.games()
    for game in games[1:]:
        plan.add(0, game.key, game.seats, ranks_of(game.seats, upset=False))
    assert not plan.advance() and plan.round == 0
    plan.add(1, "r1t0s0", ("e0", "e1"), [1, 2])
    assert plan.advance() and plan.round == 1 and plan.look.games == len(games) - 1


async def test_the_source_asks_for_the_next_round_once_every_game_of_one_is_done(tmp_path):
    import trio

    from arena.tournament._handout import GameSource, WindowPlan

    config = load_config(adaptive_file(tmp_path, 'goal = "top 1"', entrants=4))
    first = AdaptivePlan(config, KEY).games()
    rounds = [first[:2], []]
    asked = []

    def next_round():
        asked.append(len(taken))
        return rounds.pop(0)

    source = GameSource(iter(first[2:]), WindowPlan(players=2, entrants=4, share=2, workers=2),
                        remaining=len(first) - 2, next_round=next_round)
    taken = []

    async def worker(name):
        while (game := await source.take(name)) is not None:
            taken.append(game.key)
            await trio.sleep(0.01)
            source.done()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(worker, "a")
        nursery.start_soon(worker, "b")
    # asked when the first games were all played, then after the next round's, which was the last
    assert asked == [len(first) - 2, len(first)] and sorted(taken) == sorted(game.key for game in first)


def test_where_the_question_stands_as_json_stopped_open_and_before_the_first_look(tmp_path):
    from arena.report import adaptive_lines, adaptive_state

    path = adaptive_file(tmp_path, 'goal = "order"\nrounds = 2', entrants=6)
    config = load_config(path)
    plan = AdaptivePlan(config, KEY)
    games = [SimpleNamespace(round=game.round, key=game.key, seats=game.seats, ranks=ranks_of(game.seats, number % 4 == 0))
             for played in play_out(plan) for number, game in enumerate(played)]  # the ranks play_out gave
    meta = {"config": json.dumps(config.raw, default=str), "config_path": str(path)}
    store = SimpleNamespace(meta=meta.get, path=tmp_path / "a.db")
    state = adaptive_state(store, games)
    assert state == {"goal": "order", "error": 0.05, "margin": 20.0, "state": "undecided",
                     "answer": plan.stop.rpartition("likeliest order = ")[2].split(" > "),
                     "games": len(games), "rounds": 2, "undecided": plan.undecided(), "lines": [
                         f"adaptive: {plan.stop}; play more rounds with: arena tournament extend {store.path} --rounds N"]}
    first = [game for game in games if game.round == 0]
    state = adaptive_state(store, first)
    assert (state["state"], state["games"], state["rounds"], len(state["answer"])) == ("open", len(first), 1, 6)
    assert state["lines"] == adaptive_lines(store, first) and len(state["lines"]) == 2
    assert state["lines"][1].endswith(f"is for {len(state['undecided'])} undecided: {', '.join(state['undecided'])}")
    assert adaptive_state(store, first[:1]) == {
        "goal": "order", "error": 0.05, "margin": 20.0, "state": "open", "answer": None, "games": 0, "rounds": 0,
        "undecided": [f"e{i}" for i in range(6)], "lines": ["adaptive: order at error 0.05: open, round 1 not complete (1 games)"]}
    meta["config"] = json.dumps({**config.raw, "format": "round-robin"}, default=str)
    assert adaptive_state(store, games) is None and adaptive_lines(store, games) == []
