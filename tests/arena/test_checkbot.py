"""arena check-bot: a conforming bot passes; each kind of broken bot fails with the right
finding, the request sent and the reply received."""

import subprocess
import sys
from pathlib import Path

from arena.match._checkbot import REFERENCE, Verdict, _tables, _version_note, check_bot
from arena.players._manifest import BotSpec
from engines import game_ids
from protocol import BotHello

BOTS = Path(__file__).parent / "bots"


def scripted(mode: str) -> BotSpec:
    return BotSpec(f"scripted-{mode}", (sys.executable, str(BOTS / "scripted.py"), mode))


async def test_reference_random_bot_passes_every_game(children_see_the_tests_games):
    # every registered game (the tests' own too: the bot, started with them on its path, claims it)
    report = await check_bot(REFERENCE, games_per=2)
    assert report.passed, "\n".join(report.lines())
    assert report.lines()[-1] == "result: PASS"
    verdicts = [(f.verdict, f.what.split(":")[0]) for f in report.findings]
    assert (Verdict.PASS, "handshake") in verdicts and (Verdict.PASS, "bye") in verdicts
    assert {what for verdict, what in verdicts if verdict is Verdict.PASS} >= set(game_ids())
    passes = {f.what.split(":")[0]: f.what for f in report.findings if f.verdict is Verdict.PASS}
    handshake = next(f for f in report.findings if f.what.startswith("handshake"))
    assert "protocol 1.1," in handshake.what
    assert handshake.details == ("it gets protocol 1.1: each game's static observation fields once, in "
                                 "start.static, and observations without them (§5.3)",)
    assert "2-8 players, every variant" in passes["dead-mans-draw"]
    assert "2-4 players, every variant" in passes["opito-bay"] and "2-4 players" in passes["karibik"]
    for warning in (f for f in report.findings if f.verdict is Verdict.WARN and "never asked" in f.what):
        assert warning.details == ("they arise only in some positions, and your bot's own choices may avoid"
                                   " them (e.g. it never collects, or never leads into them); it must still"
                                   " answer them",)


def test_tables_cover_every_player_count_and_each_variant():
    assert _tables("dead-mans-draw") == [(n, {}) for n in range(2, 9)] + [
        (2, {"characters": False}), (2, {"strange_waters": True}), (2, {"mermaid_effect": True}),
        (2, {"party": True})]
    assert _tables("opito-bay") == [(2, {}), (3, {}), (4, {})]
    # a ladder's table size: only that count, each variant at it
    assert _tables("dead-mans-draw", 5) == [(5, {}), (5, {"characters": False}), (5, {"strange_waters": True}),
                                            (5, {"mermaid_effect": True}), (5, {"party": True})]
    assert _tables("opito-bay", 3) == [(3, {})]


async def test_illegal_action_fails_with_request_and_reply():
    report = await check_bot(scripted("illegal"), games=["dead-mans-draw"], games_per=2)
    assert not report.passed
    [failure] = [f for f in report.findings if f.verdict is Verdict.FAIL]
    assert failure.what.endswith(": illegal") and failure.section == "§12 Games"
    sent, received = failure.details[1], failure.details[2]
    assert sent.startswith('sent:     {"type":"request"')
    assert received == 'received: {"type":"action","id":3,"action":"definitely-not-legal"}'


async def test_bad_hello_fails_the_handshake():
    report = await check_bot(scripted("bad-hello"))
    assert [f.verdict for f in report.findings] == [Verdict.FAIL]
    assert "name' must not be empty" in report.findings[0].details[0]


async def test_bot_without_games_and_no_game_given_fails():
    report = await check_bot(scripted("good"))
    assert any(f.verdict is Verdict.FAIL and "names no game" in f.what for f in report.findings)


async def test_bot_that_ignores_bye_fails():
    spec = BotSpec("deaf", (sys.executable, str(BOTS / "hostile.py"), "ignore-sigterm", "check-bot-test"))
    report = await check_bot(spec, games=["dead-mans-draw"], games_per=1)
    assert any(f.verdict is Verdict.FAIL and f.what.startswith("bye:") for f in report.findings)


def test_cli_exit_codes():
    ok = subprocess.run(["arena", "check-bot", "python -m bots.random", "--game", "karibik", "--games-per", "2"],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0 and ok.stdout.splitlines()[0].startswith("check-bot bots.random: protocol 1.1")
    bad = subprocess.run(["arena", "check-bot", f"{sys.executable} {BOTS / 'scripted.py'} garbage",
                          "--game", "opito-bay"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and "FAIL" in bad.stdout and "§5 Messages" in bad.stdout
    unknown = subprocess.run(["arena", "check-bot", "python -m bots.random", "--game", "chess"],
                             capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and unknown.stderr.startswith("error: unknown game 'chess'")


RECORDER = Path(__file__).parent.parent / "protocol" / "bots" / "recorder.py"


def test_a_1_0_bot_is_told_which_protocol_it_gets():
    note = _version_note(BotHello(name="old", version="1", games=(), protocol="1.0"))
    assert note == ("it gets protocol 1.0: complete observations in every request; a bot that reads "
                    "start.static may say 1.1 and get a game's static fields once per game (§5.3)")
    assert _version_note(BotHello(name="new", version="1", games=(), protocol="1.4")).startswith(
        "it gets protocol 1.1: ")


async def test_a_1_1_bot_that_looks_for_the_board_in_observations_is_told_where_it_went():
    report = await check_bot(BotSpec("new", (sys.executable, str(RECORDER), "1.1", "board")),
                             games=["karibik"], games_per=1)
    [failure] = [f for f in report.findings if f.verdict is Verdict.FAIL]
    assert failure.what.startswith("karibik game 1 (2 players, options default), seat 0")
    assert failure.details[-1] == ("note:     this bot says protocol 1.1, so its observations have no board: "
                                   "they came once, in start.static (§5.3)")
