"""A tournament whose engine fails in one game: that game is stored as an arena error, with
its traceback, charged to no bot and left out of the ratings; the tournament goes on."""

import textwrap

import trio

from arena.report._data import standings_data
from arena.report._tables import fault_counts, records_of, standings_of
from arena.tournament._config import load_config
from arena.tournament._database import open_store
from arena.tournament._runner import TournamentRunner
from engines.dead_mans_draw._state import DeadMansDrawState


def test_tournament_stores_an_arena_error_and_rates_the_other_games(tmp_path, monkeypatch):
    path = tmp_path / "t.toml"
    path.write_text(textwrap.dedent("""\
        game = "dead-mans-draw"
        players = 2
        rounds = 1
        seed = 7
        concurrency = 1
        database = "t.db"
        [options]
        characters = false
        """) + "".join(f'[[entrants]]\nname = "r{i}"\ncommand = "python -m bots.random"\n' for i in range(3)))
    outcome, calls = DeadMansDrawState.outcome, []

    def fails_once(state):
        calls.append(1)
        if len(calls) == 2:  # the second game's end, in the arena only (bots are other processes)
            raise ZeroDivisionError("a bug in outcome")
        return outcome(state)

    monkeypatch.setattr(DeadMansDrawState, "outcome", fails_once)
    config = load_config(path)
    store = open_store(config)
    assert trio.run(TournamentRunner(config, store).run) == 6
    games = list(store.games())
    broken = [game for game in games if game.reason == "arena-error"]
    assert len(games) == 6 and len(broken) == 1
    [fault] = broken[0].faults
    assert (fault["seat"], fault["bot"], fault["kind"]) == (None, None, "arena-error")
    assert "ZeroDivisionError: a bug in outcome" in fault["detail"] and "Traceback" in fault["detail"]
    assert len(records_of(games)) == 5, "the arena-error game counts for and against no one"
    assert sum(fault_counts(games).values()) == 0
    assert sorted(row.name for row in standings_of(records_of(games), n_boot=10).rows) == ["r0", "r1", "r2"]
    wdl = standings_data(games, n_boot=10)["wdl"]  # the HTML report's head-to-head
    assert sum(sum(cell) for row in wdl for cell in row) == 2 * 5
