"""The ladder's database and file: tokens, versions and which stay active, games stored once,
and the ladder file's checks (the server's own tests run it for real)."""

from pathlib import Path

import pytest

from arena.ladder._config import load_ladder
from arena.ladder._store import LadderStore, Status
from arena.match._result import EndReason, MatchResult
from arena.players._faults import Fault, FaultKind
from arena.tournament._config import ConfigError
from arena.tournament._store import StoreError
from engines import Replay

from .._warnings import without_sandbox_warnings
from ._server import ladder_folder, remove

ROOT = Path(__file__).parents[3]


@pytest.fixture
def store(tmp_path):
    opened = LadderStore.open(tmp_path / "ladder.db", "dead-mans-draw", 2)
    yield opened
    opened.close()


def _result(seats, ranks, faults=()):
    return MatchResult("dead-mans-draw", 7, seats, ranks, ranks, (10, 5), tuple(faults), EndReason.NORMAL,
                       Replay("dead-mans-draw", 2, 7), (), 0.1)


def test_tokens_are_stored_as_hashes(store, tmp_path):
    assert (tmp_path / "ladder.db").stat().st_mode & 0o777 == 0o600  # it holds the deals' key
    token = store.add_token("alice")
    assert store.author_of(token) == "alice" and store.author_of(token + "x") is None
    assert token.encode() not in (tmp_path / "ladder.db").read_bytes() + (tmp_path / "ladder.db-wal").read_bytes()
    with pytest.raises(StoreError, match="already has a token"):
        store.add_token("alice")
    assert store.revoke_token("alice") and not store.revoke_token("alice")
    assert store.author_of(token) is None
    again = store.add_token("alice")
    assert again != token and store.author_of(again) == "alice"
    assert [row[0] for row in store.tokens()] == ["alice"]


def test_versions_and_active(store):
    ids = [store.add_submission("alice", b"archive")[0] for _ in range(3)]
    assert [store.submission(i)["entrant"] for i in ids] == ["alice-v1", "alice-v2", "alice-v3"]
    assert [p[0] for p in store.pending()] == ids
    store.decide(ids[0], True, "ok", Path("/x/bot.toml"))
    store.decide(ids[1], True, "ok", Path("/y/bot.toml"))
    store.decide(ids[2], False, "FAIL crash", None)
    store.add_submission("bob", None, Path("/z/bot.toml"))  # a house bot: passed at once
    store.activate(1)
    assert [e.name for e in store.active()] == ["alice-v2", "bob-v1"]  # the newest passed one stays
    store.activate(2)
    assert [e.name for e in store.active()] == ["alice-v1", "alice-v2", "bob-v1"]
    assert store.pending() == []
    failed = store.submission(ids[2])
    assert (failed["status"], failed["report"], failed["active"]) == (Status.FAILED, "FAIL crash", False)
    assert store.house_bots() == {("bob", "/z/bot.toml")}


def test_a_game_is_stored_once_with_its_seats_and_faults(store):
    fault = Fault(1, "b-v1", FaultKind.TIMEOUT, "no reply", 3, "last words")
    assert store.record("b1s0", "b1", 0, ("a-v1", "b-v1"), _result(("a-v1", "b-v1"), (1, 2), [fault]))
    assert not store.record("b1s0", "b1", 0, ("a-v1", "b-v1"), _result(("a-v1", "b-v1"), (1, 2), [fault]))
    assert store.record("b1s1", "b1", 1, ("b-v1", "a-v1"), _result(("b-v1", "a-v1"), (2, 1)))
    assert store.game_count() == 2 and store.next_block() == 2
    assert [g["key"] for g in store.games("b-v1")] == ["b1s1", "b1s0"]
    assert store.faults("b-v1") == [{"game": 1, "kind": "timeout", "step": 3, "detail": "no reply",
                                     "stderr_tail": "last words"}]
    assert store.faults("a-v1") == []
    meta, replay = store.game(1)
    assert meta["seats"] == ["a-v1", "b-v1"] and replay["game"] == "dead-mans-draw"
    assert [r[1:] for r in store.results()] == [(("a-v1", "b-v1"), (1, 2), "b1"), (("b-v1", "a-v1"), (2, 1), "b1")]


def test_another_game_or_file_is_refused(tmp_path, store):
    with pytest.raises(StoreError, match="holds a ladder of dead-mans-draw at 2 players, not karibik at 3"):
        LadderStore.open(tmp_path / "ladder.db", "karibik", 3)
    (tmp_path / "other.db").write_bytes(b"SQLite format 3\0" + bytes(200))
    with pytest.raises(StoreError, match="not a pirate-arena ladder database"):
        LadderStore.open(tmp_path / "other.db")
    with pytest.raises(StoreError, match="no such ladder database"):
        LadderStore.open(tmp_path / "missing.db")


def test_the_example_ladder_file():
    config = load_ladder(ROOT / "examples" / "ladder.toml")
    assert (config.game, config.players, config.port, config.active_versions) == ("dead-mans-draw", 2, 8000, 1)
    assert [(b.author, b.manifest.name) for b in config.bots] == [("random", "py-random.toml"),
                                                                 ("heuristic", "py-heuristic.toml")]
    assert config.database == ROOT / "examples" / "ladder.db"
    assert config.play.settings.time_control.move_ms == 100


def test_a_bad_ladder_file_names_the_key(tmp_path):
    path = tmp_path / "l.toml"
    path.write_text('game = "dead-mans-draw"\nactive_versions = 0\n')
    with pytest.raises(ConfigError, match=r"l.toml: key 'active_versions' must be an integer in 1..100, got 0"):
        load_ladder(path)


def test_a_port_in_use_is_one_error_line(tmp_path):
    import socket

    from typer.testing import CliRunner

    from arena.cli._app import app

    tmp_path = ladder_folder()  # pytest's tmp_path lies in a 0700 folder, refused first as root
    (tmp_path / "l.toml").write_text('game = "dead-mans-draw"\n')
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["ladder", "serve", str(tmp_path / "l.toml"), "--port", str(port),
                                          "--sandbox", "none"], prog_name="arena")
    assert result.exit_code == 2, result.output
    # The machine's sandbox warnings (--sandbox none: without bubblewrap) come first; then one error line.
    assert without_sandbox_warnings(result.stderr) == (f"error: {tmp_path}/l.toml: cannot listen on 127.0.0.1:{port} "
                                                       f"(Address already in use); choose another 'port' or --port\n")
    remove(tmp_path)


def test_only_the_last_fit_is_kept_and_history_points_change(store):
    def fit(games):
        return {"rows": [{"name": name, "elo": 1.0, "minus": 5.0, "plus": 5.0, "games": count}
                         for name, count in games.items()], "crosstable": {}, "groups": []}

    store.save_fit(4, fit({"a-v1": 4, "b-v1": 4}))
    store.save_fit(6, fit({"a-v1": 6, "b-v1": 4, "c-v1": 2}))  # b-v1 retired: no new point
    assert store._db.execute("SELECT COUNT(*) FROM fits").fetchone() == (1,)
    assert store.last_fit()[0] == 6
    assert [h["games"] for h in store.history("a-v1")] == [4, 6]
    assert [h["games"] for h in store.history("b-v1")] == [4]
    assert [h["games"] for h in store.history("c-v1")] == [2]


def test_the_leaderboard_lists_active_versions_first_and_keeps_retired_ones(store):
    from arena.ladder import _api

    for author in ("alice", "alice", "bob"):
        store.add_submission(author, None, Path(f"/{author}/bot.toml"))
    store.activate(1)  # alice-v1 retires
    rows = [{"name": name, "elo": elo, "minus": 30.0, "plus": 30.0, "games": 40, "points_percent": 50.0}
            for name, elo in (("alice-v1", 90.0), ("bob-v1", 10.0))]
    store.save_fit(40, {"rows": rows, "crosstable": {}, "groups": []})
    board = _api.leaderboard(store)
    assert [(r["name"], r["active"], r["elo"], r["provisional"]) for r in board["rows"]] == [
        ("bob-v1", True, 10.0, False), ("alice-v2", True, None, True), ("alice-v1", False, 90.0, False)]
    assert _api.bot(store, "alice")["versions"][1]["rating"]["elo"] == 90.0
    assert _api.bot(store, "nobody") is None


def test_pack_bot_puts_the_manifest_at_the_top_as_bot_toml(tmp_path):
    import io
    import tarfile

    from arena.cli._ladder import pack_bot

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "lib.py").write_text("x = 1\n")
    (tmp_path / "bot.toml").write_text("# an older manifest\n")
    (tmp_path / "mine.toml").write_text('command = ["python", "bot.py"]\n')
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"\0")
    with tarfile.open(fileobj=io.BytesIO(pack_bot(tmp_path / "mine.toml"))) as archive:
        names = archive.getnames()
        manifest = archive.extractfile("bot.toml").read()
    assert sorted(names) == ["bot.toml", "sub", "sub/lib.py"]
    assert manifest == b'command = ["python", "bot.py"]\n'
    (tmp_path / "link").symlink_to(tmp_path / "sub")
    from arena.cli._common import UsageError

    with pytest.raises(UsageError, match="is a link"):
        pack_bot(tmp_path / "mine.toml")


def test_the_example_ladder_file_shows_every_key_a_ladder_has():
    # examples/ladder.toml says it shows every key: a key added to the reader and not to it
    # would be one an organiser never hears of (four were missing, issue 47).
    from arena.ladder._config import _OWN

    example = Path(__file__).resolve().parents[3] / "examples" / "ladder.toml"
    text = example.read_text(encoding="utf-8")
    assert sorted(key for key in _OWN - {"bots"} if f"\n{key} = " not in text) == []
    assert "[[bots]]" in text
    load_ladder(example)
