"""What the viewer shows beside a game (arena/report/_meta.py): the clock of each decision
aligned with the replay's actions, the faults with a glance of stderr; and the store's moves
with the reserve left, read back from databases of this version and of earlier ones."""

import msgpack

from arena.match._result import EndReason, MatchResult
from arena.players._faults import Fault, FaultKind
from arena.report._meta import clock_meta, fault_meta, stderr_glance, time_limits, viewer_meta
from arena.report._page import stored_meta
from arena.tournament._schedule import ScheduledGame
from arena.tournament._store import ResultsStore
from engines import Replay

from ._report_fixtures import play_random
from ._viewer_fixtures import flaky_bot, play_one, random_bot

#: two simultaneous seats, then seat 1 alone, then seat 0 alone
REPLAY = Replay("karibik", 2, 1, {}, [{0: "a", 1: "b"}, {1: "c"}, {0: "d"}])


def test_the_clock_follows_the_replays_actions_whatever_order_the_moves_came_in():
    moves = [(1, 12.345, True, 1900.4), (0, 3.21, True, 2000.0),  # seat 1 answered first
             (1, 0.0, False, None), (0, 0.6, True, 499.6)]
    assert clock_meta(REPLAY, moves) == {"ms": [3.2, 12, None, 0], "left": [2000, 1900, None, 500]}


def test_moves_without_reserves_give_times_alone():
    moves = [(0, 1.0, True), (1, 2.0, True), (1, 0.0, False), (0, 4.0, True)]
    assert clock_meta(REPLAY, moves) == {"ms": [1.0, 2.0, None, 4.0]}
    assert clock_meta(REPLAY, [(*move, None) for move in moves]) == {"ms": [1.0, 2.0, None, 4.0]}


def test_moves_after_the_last_step_are_dropped_and_moves_that_do_not_match_give_no_clock():
    moves = [(0, 1.0, True, 0.0), (1, 2.0, True, 0.0), (1, 3.0, True, 0.0), (0, 4.0, True, 0.0)]
    assert clock_meta(REPLAY, moves + [(1, 0.0, False, None)]) == {"ms": [1.0, 2.0, 3.0, 4.0], "left": [0, 0, 0, 0]}
    assert clock_meta(REPLAY, moves[:3]) is None  # one missing
    assert clock_meta(REPLAY, [moves[0], moves[3], moves[2], moves[1]]) is None  # seat 0 twice in the first step
    assert clock_meta(REPLAY, []) is None and clock_meta(REPLAY, None) is None


def test_a_fault_keeps_the_last_lines_of_stderr():
    tail = "".join(f"line {n}\n" for n in range(30))
    fault = {"seat": 1, "bot": "b", "kind": "crash", "detail": "exited", "step": 4, "stderr_tail": tail}
    assert fault_meta(fault) == {"seat": 1, "bot": "b", "kind": "crash", "detail": "exited", "step": 4,
                                 "stderr": "\n".join(f"line {n}" for n in range(18, 30))}
    assert stderr_glance("x" * 5000) == "x" * 1200
    assert fault_meta({**fault, "stderr_tail": "", "between_games": True}) == {
        "seat": 1, "bot": "b", "kind": "crash", "detail": "exited", "step": 4, "between_games": True}


def test_time_limits_default_to_the_time_controls():
    assert time_limits({}) == [1000, 0]
    assert time_limits({"time": {"move_ms": 250, "reserve_ms": 5000}}) == [250, 5000]


def test_viewer_meta():
    meta = viewer_meta(REPLAY, key="g1", bots=("a", "b"), ranks=(1, 2), scores=(5, 3), reason="normal",
                       faults=[{"seat": 0, "bot": "a", "kind": "timeout", "detail": "late", "step": 2, "stderr_tail": ""}],
                       moves=[(0, 1.0, True, 5.0), (1, 2.0, True, 5.0), (1, 3.0, True, 5.0), (0, 0.0, False, None)],
                       limits=[100, 5])
    assert meta == {"key": "g1", "bots": ["a", "b"], "ranks": [1, 2], "scores": [5, 3], "reason": "normal",
                    "faults": [{"seat": 0, "bot": "a", "kind": "timeout", "detail": "late", "step": 2}],
                    "clock": {"ms": [1.0, 2.0, 3.0, None], "left": [5, 5, 5, None]}, "limits": [100, 5]}
    assert "clock" not in viewer_meta(REPLAY, bots=["a", "b"]) and "limits" not in viewer_meta(REPLAY, bots=["a", "b"])


def _store_game(path, result):
    store = ResultsStore.create(path, "fp", {"game": result.game, "time": {"move_ms": 50}}, path,
                                [("a", {"command": ["a"]}), ("b", {"command": ["b"]})])
    store.record(ScheduledGame("g0", 0, 0, 0, ("a", "b"), result.seed, "b0"), result)
    return store


def _result(replay, moves, reserves=()):
    outcome = replay.final_state().outcome()
    return MatchResult(replay.game, replay.seed, ("a", "b"), outcome.ranks, outcome.ranks, outcome.scores,
                       (Fault(1, "b", FaultKind.CRASH, "exited", 1, "boom\n"),), EndReason.FORFEIT, replay,
                       tuple(moves), 0.5, tuple(reserves))


def test_the_store_keeps_each_moves_reserve_and_reads_databases_that_hold_triples(tmp_path):
    replay = play_random("dead-mans-draw")
    count = sum(len(step) for step in replay.steps)
    moves = [(seat, 1.5, seat == 0, None) for step in replay.steps for seat in step]
    store = _store_game(tmp_path / "new.db", _result(replay, [m[:3] for m in moves],
                                                     [1000.0 if m[2] else None for m in moves]))
    try:
        assert store.moves("g0") == [(seat, 1.5, by_bot, 1000.0 if by_bot else None) for seat, _, by_bot, _ in moves]
        assert store.moves("nope") is None
        game = next(store.games())
        meta = stored_meta(store, game, replay)
        assert meta["limits"] == [50, 0] and len(meta["clock"]["ms"]) == count
        assert meta["clock"]["left"] == [1000 if seat == 0 else None for step in replay.steps for seat in step]
        assert meta["faults"] == [{"seat": 1, "bot": "b", "kind": "crash", "detail": "exited", "step": 1, "stderr": "boom"}]
    finally:
        store.close()
    # a result without reserves (as an earlier version stored every game): triples, read with None
    old = _store_game(tmp_path / "old.db", _result(replay, [m[:3] for m in moves]))
    try:
        assert old.moves("g0") == [(seat, 1.5, by_bot, None) for seat, _, by_bot, _ in moves]
        raw = old._db.execute("SELECT moves FROM games").fetchone()[0]
        assert all(len(move) == 3 for move in msgpack.unpackb(raw))
        meta = stored_meta(old, next(old.games()), replay)
        assert "left" not in meta["clock"] and meta["clock"]["ms"] == [1.5 if seat == 0 else None
                                                                     for step in replay.steps for seat in step]
    finally:
        old.close()


async def test_a_match_records_the_reserve_left_after_each_of_its_bots_moves():
    result = await play_one("dead-mans-draw", [random_bot("anna"), flaky_bot(4)], 5)
    assert [fault.kind for fault in result.faults] == [FaultKind.CRASH]
    assert len(result.reserves_ms) == len(result.moves) == sum(len(step) for step in result.replay.steps)
    # the reserve (2000 ms) is untouched by moves within the limit; the fallback's moves have none
    assert [reserve for reserve in result.reserves_ms] == [2000.0 if by_bot else None for _, _, by_bot in result.moves]
    assert [by_bot for seat, _, by_bot in result.moves if seat == 1].count(True) == 3  # its 4th request crashed it
