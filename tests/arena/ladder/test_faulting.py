"""In-game faults per version (arena/ladder/_faulting.py) and the bench in matchmaking."""

import random

from arena.ladder._faulting import GameFaults, faulted_in_game
from arena.ladder._matchmaking import LadderGame, choose_tables
from arena.players._faults import Fault, FaultKind


def crash(bot: str, between: bool = False) -> Fault:
    return Fault(0, bot, FaultKind.CRASH, "exited", 2, between_games=between)


def test_a_fault_in_a_game_counts_once_per_game_and_between_games_not_at_all():
    assert faulted_in_game("a", [crash("a"), crash("a")]) is True
    assert faulted_in_game("a", [crash("b")]) is False
    assert faulted_in_game("a", [crash("a", between=True)]) is None  # withdraw_after's
    assert faulted_in_game("a", [Fault(None, None, FaultKind.ARENA_ERROR, "bug", 0)]) is False
    assert faulted_in_game("a", [crash("a", between=True).as_dict(), crash("a").as_dict()]) is True


def test_the_window_withdraws_at_the_limit_and_forgets_old_faults():
    faults = GameFaults(limit=3, window=5)
    assert faults.note(("a", "b"), [crash("a")]) == []
    assert faults.note(("a", "b"), [crash("a")]) == [] and faults.benched(["a", "b"]) == {"a"}
    for _ in range(5):  # clean games push the two faults out of the window
        assert faults.note(("a", "b"), []) == []
    assert faults.count("a") == 0 and faults.benched(["a"]) == frozenset()
    assert faults.note(("a", "b"), [crash("a")]) == []
    assert faults.note(("a", "b"), [crash("a", between=True)]) == []  # not a game of the window
    assert faults.note(("a", "b"), [crash("a")]) == []
    assert faults.note(("a", "b"), [crash("a")]) == ["a"]
    assert faults.reason("a") == "withdrawn after faults in 3 of its last 5 games (limit 3, game_fault_limit)"
    assert GameFaults(limit=0, window=5).note(("a", "b"), [crash("a")]) == []  # 0: never


def test_a_loaded_window_counts_like_a_played_one():
    faults = GameFaults(limit=2, window=3)
    faults.load("a", [[crash("a").as_dict()], [], [crash("a", between=True).as_dict()]])
    assert faults.count("a") == 1
    assert faults.note(("a", "b"), [crash("a")]) == ["a"]


def test_a_benched_faulter_gets_its_fair_share_not_the_tables_its_forfeits_earn():
    rng = random.Random(1)
    names = ["a", "b", "c", "d", "e"]
    games = []
    for _ in range(200):  # c forfeits every game it plays
        table = rng.sample(names, 2)
        first = table[1] == "c" or ("c" not in table and rng.random() < 0.5)
        games.append(LadderGame(tuple(table), (1, 2) if first else (2, 1)))
    free = choose_tables(names, games, 2, 100, random.Random(2))
    benched = choose_tables(names, games, 2, 100, random.Random(2), benched=frozenset({"c"}))
    # Uniform drawing seats each of 5 at 40 of 100 two-seat tables; the fair share is half that.
    assert sum("c" in table for table in free) > 40
    assert 10 <= sum("c" in table for table in benched) <= 25


def test_a_benched_faulter_with_a_table_in_flight_rests_unless_the_table_needs_it():
    rng = random.Random(3)
    names = ["a", "b", "c"]
    games = [LadderGame(tuple(rng.sample(names, 2)), (1, 2)) for _ in range(60)]
    # c has sat out far longer than its fair-share wait: rule 1 would seat it first.
    games += [LadderGame(("a", "b"), (1, 2))] * 20
    waiting = choose_tables(names, games, 2, 1, random.Random(4), benched=frozenset({"c"}))
    resting = choose_tables(names, games, 2, 10, random.Random(4), pending=[("c", "a")],
                            benched=frozenset({"c"}), resting=frozenset({"c"}))
    assert "c" in waiting[0] and not any("c" in table for table in resting)
    # Two entrants left for a two-seat table: it cannot be filled without c.
    assert choose_tables(["a", "c"], games, 2, 1, random.Random(4), resting=frozenset({"c"})) in (
        [("a", "c")], [("c", "a")])
