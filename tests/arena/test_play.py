"""``arena play`` without a browser: what a seat's page is sent (the leak test), the token gate,
a person's clock, a refused answer, and the command line's errors before any server starts.

The leak test is the protocol's (tests/protocol): a person plays every game at 2, 3 and 4
players against random bots, and every message the seat publishes to its pages is checked
against the engine's re-play of the stored game: its observation is exactly the seat's
observation at a state of the game (in order), its events exactly the seat's events since
the person's last decision, its legal actions the engine's, and nothing else is in it; the
omniscient state (the seed, the whole game) comes only in the message that ends the game.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import trio

import engines
from arena.match._match import MatchSettings
from arena.match._result import EndReason
from arena.play._human import HumanSeat
from arena.play._serve import serve_play
from arena.play._session import PlaySession, PlaySetup
from arena.players._manifest import BotSpec
from arena.players._open_pool import open_bot_pool
from arena.players._timecontrol import TimeControl
from engines import Replay

from .test_cli import arena, assert_user_error

ROOT = Path(__file__).resolve().parents[2]
RANDOM = BotSpec(name="py-random", command=(sys.executable, "-m", "bots.random"), cwd=ROOT)
SETTINGS = MatchSettings(TimeControl(move_ms=2000, reserve_ms=5000, startup_ms=10_000))
#: short games of every registered game: its short options (OpenSpiel's; Opito Bay of one deal),
#: Karibik of two rounds
OPTIONS = {game: dict(engines.get_game(game).pieces.short_options) for game in engines.game_ids()} | {
    "karibik": {"max_rounds": 2}}
#: the keys of each message type: nothing else may reach a page
STATE_KEYS = {"type", "number", "observation", "events", "thinking", "decision", "faults", "notice"}


def setup_for(game: str, players: int, seat: int, seed: int, folder: Path, **extra) -> PlaySetup:
    bots = {s: RANDOM for s in range(players) if s != seat}
    return PlaySetup(game=game, players=players, humans={seat: "human"}, bots=bots, seed=seed,
                     options=OPTIONS[game], settings=SETTINGS, replay_dir=folder, **extra)


def random_answer(seat: HumanSeat, message: dict, rng: random.Random) -> None:
    """What a page would send: a random legal action (a random bribe where none are listed)."""
    decision = message["decision"]
    if decision["legal"] is not None:
        assert seat.answer(decision["id"], rng.randrange(len(decision["legal"]))) is None
        return
    cards = [-1, 0, 1, 2, 3, 4, 5]
    rng.shuffle(cards)
    assert seat.answer(decision["id"], action=cards[:6]) is None


async def person(seat: HumanSeat, rng: random.Random, games: int = 1) -> None:
    """A page's person: answers every decision, stops after ``games`` games."""
    answered = set()
    async for message in seat.follow():
        if message["type"] == "over" and message["number"] >= games:
            return
        decision = message.get("decision")
        if message["type"] == "state" and decision and decision["id"] not in answered:
            answered.add(decision["id"])
            random_answer(seat, message, rng)


async def play_session(setup: PlaySetup, seed: int) -> tuple[PlaySession, list[dict]]:
    seat_number = next(iter(setup.humans))
    seat = HumanSeat(seat_number, "human", "t0ken")
    seat.record = []
    names = setup.names()
    specs = {names[s]: spec for s, spec in setup.bots.items()}
    async with open_bot_pool(specs, 10) as pool:
        session = PlaySession(setup, pool, {seat_number: seat})
        async with trio.open_nursery() as nursery:
            nursery.start_soon(person, seat, random.Random(seed))
            await session.play_one()
    return session, seat.record


def _plain(value):
    return json.loads(json.dumps(value))


def check_messages(messages: list[dict], replay: Replay, seat: int) -> None:
    """Every message a page of ``seat`` was sent, against the engine's re-play of the game:
    each is the seat's view of some state, in order, and says nothing else."""
    states = replay.states()
    observations = [_plain(state.observation(seat)) for state in states]
    at, since = 0, 0  # the state of the last message; the log index of the person's last answer
    for number, message in enumerate(messages):
        if message["type"] == "over":
            assert number == len(messages) - 1  # the whole game only once it is over
            assert _plain(message["observation"]) == observations[-1]
            assert set(message) == STATE_KEYS - {"decision", "thinking", "notice"} | {
                "seed", "bots", "ranks", "scores", "reason", "saved", "replay", "history"}
            assert _plain(message["history"]) == _plain(states[-1].events_for(seat, 0))
            return
        assert message["type"] == "state" and set(message) == STATE_KEYS, message.keys()
        seen, events = _plain(message["observation"]), _plain(message["events"])
        found = None
        # the events since the person's last decision: since the last one a message showed, or
        # since a later one (a page that falls behind gets only the newest message)
        starts = [since]
        for k in range(at, len(states)):
            if seat in states[k].acting:
                starts.append(len(states[k].log))
            if observations[k] != seen:
                continue
            start = next((start for start in starts if events == _plain(states[k].events_for(seat, start))), None)
            if start is not None:
                found = (k, start)
                break
        assert found is not None, f"message {number} is not the seat's view of a later state: {message}"
        at, since = found
        state = states[at]
        decision = message["decision"]
        if decision is not None:
            assert seat in state.acting and decision["kind"] == state.decision(seat)
            legal = state.legal_actions(seat)
            assert decision["legal"] == (None if legal is None else _plain(legal))
            assert set(decision) <= {"id", "kind", "legal", "move_ms", "left_ms"}
        assert set(message["thinking"]) <= set(state.acting)
        for fault in message["faults"]:
            assert set(fault) == {"seat", "bot", "kind"}  # no detail, no stderr before the end
    pytest.fail("the game's last message is not its end")


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_every_message_to_the_page_is_the_seats_observation(every_game, players, tmp_path):
    game = every_game
    seat = players - 1 if players != 3 else 1
    setup = setup_for(game, players, seat, seed=11 + players, folder=tmp_path)
    session, messages = await play_session(setup, seed=players)
    [(result, where)] = session.results
    assert result.reason is EndReason.NORMAL and not result.faults
    [kept] = tmp_path.glob(f"play-{game}-*.json")
    assert where.startswith(f"kept in {kept}: `arena view {kept}`")
    check_messages(messages, result.replay, seat)
    decisions = sum(1 for step in result.replay.steps if seat in step)
    assert decisions >= 1 and len([m for m in messages if m.get("decision")]) >= decisions
    # the result is the engine's: the replay of the same actions gives the same ranks
    outcome = result.replay.final_state().outcome()
    assert result.ranks == outcome.ranks and list(result.scores) == list(outcome.scores)
    over = messages[-1]
    assert over["ranks"] == list(result.ranks) and over["seed"] == str(setup.seed) and over["replay"]["text"]


async def test_a_game_is_stored_like_a_tournament_game(tmp_path):
    from arena.report import write_report
    from arena.tournament._store import ResultsStore

    setup = setup_for("dead-mans-draw", 2, 0, seed=3, folder=tmp_path, database=tmp_path / "play.db")
    from arena.play._session import open_play_store

    store = open_play_store(setup)
    seat = HumanSeat(0, "human", "t0ken")
    async with open_bot_pool({"py-random": RANDOM}, 10) as pool:
        session = PlaySession(setup, pool, {0: seat}, store)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(person, seat, random.Random(1), 2)
            await session.play_one()
            assert session.play_again(same_deal=True)
            await session._again.wait()
            session._again = trio.Event()
            await session.play_one()
    store.close()
    store = ResultsStore.open(tmp_path / "play.db")
    try:
        games = list(store.games())
        assert [g.key for g in games] == ["play-0000", "play-0001"]
        assert [g.seats for g in games] == [("human", "py-random")] * 2
        assert games[0].seed == games[1].seed == 3  # the same deal, played again
        for game in games:
            replay = Replay.from_dict(store.replay(game.key))
            outcome = replay.final_state().outcome()
            assert game.ranks == outcome.ranks
    finally:
        store.close()
    figures = write_report(tmp_path / "play.db", tmp_path / "report.html", n_boot=5)
    assert figures["games"] == 2 and figures["embedded"] == 2


async def test_a_refused_answer_is_said_and_the_decision_stays_open(tmp_path):
    setup = setup_for("karibik", 2, 0, seed=4, folder=tmp_path)
    seat = HumanSeat(0, "human", "t0ken")
    async with open_bot_pool({"py-random": RANDOM}, 10) as pool:
        session = PlaySession(setup, pool, {0: seat})
        async with trio.open_nursery() as nursery:
            nursery.start_soon(session.play_one)
            async for message in seat.follow():
                if message["type"] == "state" and message["decision"]:
                    break
            decision = message["decision"]
            assert decision["kind"] == "bribe" and decision["legal"] is None
            refused = seat.answer(decision["id"], action=[5, 5, 0, 1, 2, 3])
            assert refused.startswith("each card can go to one ship only; 5 is used twice")
            assert seat.message["notice"] == refused and seat.message["decision"]["id"] == decision["id"]
            assert seat.answer(decision["id"] + 1, action=[5, 4, 0, 1, 2, 3]) == "that decision is no longer open"
            nursery.cancel_scope.cancel()


async def test_the_persons_clock_runs_out_and_the_seat_forfeits_as_a_bot_would(tmp_path):
    setup = setup_for("dead-mans-draw", 2, 1, seed=4, folder=tmp_path, human_move_ms=300)
    seat = HumanSeat(1, "human", "t0ken", move_s=0.3)
    seat.record = []
    async with open_bot_pool({"py-random": RANDOM}, 10) as pool:
        session = PlaySession(setup, pool, {1: seat})
        result = await session.play_one()  # nobody answers
    [fault] = result.faults
    assert (fault.seat, fault.kind.value, fault.detail) == (1, "timeout", "no move within 300 ms")
    assert result.ranks[1] == 2 and result.reason is EndReason.FORFEIT
    asked = [m for m in seat.record if m["type"] == "state" and m["decision"]]
    assert asked[0]["decision"]["move_ms"] == 300
    assert any(m["faults"] == [{"seat": 1, "bot": "human", "kind": "timeout"}] for m in seat.record)


async def _http(port: int, request: str) -> str:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(request.encode())
        data = b""
        with trio.move_on_after(5):
            while b"\r\n\r\n" not in data:
                chunk = await stream.receive_some(65536)
                if not chunk:
                    break
                data += chunk
    return data.decode("latin-1").split("\r\n", 1)[0]


async def test_every_request_without_the_token_gets_403(tmp_path):
    setup = setup_for("dead-mans-draw", 2, 0, seed=4, folder=tmp_path)
    announced = []
    async with trio.open_nursery() as nursery:
        await nursery.start(_serving, setup, announced)
        [(seat, url)] = announced
        port = int(url.split(":")[2].split("/")[0])
        token = url.split("/")[3]
        host = f"127.0.0.1:{port}"  # a foreign Host or Origin: tests/arena/test_play_gate.py
        get = "GET {} HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host
        upgrade = ("GET {} HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n") % (host, host)
        for path in ("/", "/favicon.ico/", "/ws", "/" + "x" * len(token) + "/", f"/{token[:-1]}/", f"/{token}x/ws"):
            assert await _http(port, get.format(path)) == "HTTP/1.1 403 ", path
        for path in ("/ws", f"/{token[:-1]}/ws", "/x/ws"):
            assert (await _http(port, upgrade.format(path))).startswith("HTTP/1.1 403"), path
        assert await _http(port, get.format(f"/{token}/")) == "HTTP/1.1 200 "
        assert (await _http(port, upgrade.format(f"/{token}/ws"))).startswith("HTTP/1.1 101")
        nursery.cancel_scope.cancel()


async def _serving(setup, announced, task_status=trio.TASK_STATUS_IGNORED):
    def announce(urls):
        announced.extend(urls)
        task_status.started()

    await serve_play(setup, None, "127.0.0.1", 0, announce)


# -- the command line: bad input is one error line, before any server starts -----------------------

PY_RANDOM = str(ROOT / "examples" / "bots" / "py-random.toml")


@pytest.mark.parametrize("args, message", [
    (["no-such-game"], f"unknown game 'no-such-game'; known games: {', '.join(engines.game_ids())}"),
    (["dead-mans-draw", "--option", "characters=3"], "option 'characters' of dead-mans-draw must be true or false, got 3"),
    (["dead-mans-draw", "--option", "nonsense=1"], None),
    (["dead-mans-draw", PY_RANDOM, "--seat", "2"], "--seat must be a seat from 0 to 1 (2 players: you and 1 bot), got 2"),
    (["dead-mans-draw", PY_RANDOM, "--seat", "-1"], "--seat must be a seat from 0 to 1 (2 players: you and 1 bot), got -1"),
    (["dead-mans-draw", PY_RANDOM, "--seat", "0", "--seat", "0"], "--seat names seat 0 twice; each person needs their own seat"),
    (["opito-bay"] + [PY_RANDOM] * 4, "opito-bay is for 2-4 players, not 5"),
    (["dead-mans-draw", "missing.toml"], "missing.toml: no such manifest file"),
    (["dead-mans-draw", PY_RANDOM, "--port", "70000"], "--port must be an integer in 0..65535, got 70000"),
    (["dead-mans-draw", PY_RANDOM, "--human-move-ms", "0"], "--human-move-ms must be an integer in 1..86400000, got 0"),
    (["dead-mans-draw", PY_RANDOM, "--seed", "x"], None),
    (["dead-mans-draw", PY_RANDOM, "--name", "no spaces"], None),
    (["dead-mans-draw", PY_RANDOM, "--name", "a", "--name", "b"], "--name is given 2 times for 1 person(s); give one per --seat"),
])
def test_bad_input_is_one_error_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = assert_user_error(arena("play", *args, "--no-open"), message)
    assert "http" not in line


def test_a_bot_that_cannot_start_is_an_error_before_the_server_starts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    broken = tmp_path / "broken.toml"
    broken.write_text(f'name = "broken"\ncommand = ["{sys.executable}", "-c", "raise SystemExit(3)"]\n')
    result = arena("play", "dead-mans-draw", str(broken), "--no-open", "--sandbox", "none")
    line = assert_user_error(result, prefix="bot 'broken' cannot start: it exited before answering hello (exit code 3)")
    assert "http" not in result.output and line


def test_a_db_of_other_games_is_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from arena.play._session import open_play_store

    open_play_store(setup_for("opito-bay", 2, 0, 1, tmp_path, database=tmp_path / "x.db")).close()
    result = arena("play", "dead-mans-draw", PY_RANDOM, "--db", "x.db", "--no-open", "--sandbox", "none")
    assert_user_error(result, "x.db: holds other games (another game, options or other players in the seats); "
                              "choose another --db file")


def test_without_the_ladder_extra_play_says_what_to_install(tmp_path, monkeypatch):
    # after `pip install -e .` alone Starlette and Hypercorn are missing: None in sys.modules
    # makes their import raise ImportError, as if they were not installed
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.setitem(sys.modules, "hypercorn", None)
    result = arena("play", "dead-mans-draw", PY_RANDOM, "--no-open", "--sandbox", "none")
    assert_user_error(result, "arena play needs Starlette and Hypercorn: pip install 'pirate-arena[ladder]'")
    assert not list(tmp_path.iterdir())  # nothing started, nothing written
