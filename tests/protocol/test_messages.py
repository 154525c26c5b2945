"""Protocol v1 messages: the arena's builders and the exact errors of the bot-message parsers."""

import dataclasses

import pytest

import protocol
from protocol import (ActionReply, BadMessage, BotHello, VersionMismatch, parse_action, parse_hello,
                      parse_version)

GOOD_HELLO = {"type": "hello", "protocol": "1.0", "name": "py-random", "version": "2.1",
              "games": ["dead-mans-draw", "opito-bay"]}


def hello_with(**changes):
    message = dict(GOOD_HELLO, **changes)
    return {key: value for key, value in message.items() if value is not ...}


# -- builders -----------------------------------------------------------------------------------

def test_version_constants():
    assert protocol.PROTOCOL_VERSION == (1, 1)
    assert protocol.PROTOCOL_VERSION_STRING == "1.1"


def test_hello_builder():
    assert protocol.hello("pirate-arena 0.1") == {
        "type": "hello", "protocol": "1.1", "arena": "pirate-arena 0.1"}


def test_start_builder_copies_options():
    options = {"characters": True}
    message = protocol.start("opito-bay", 1, 3, options, move_ms=500, reserve_ms=2000, bot_seed=2**64 - 1)
    assert message == {"type": "start", "game": "opito-bay", "seat": 1, "players": 3,
                       "options": {"characters": True}, "move_ms": 500, "reserve_ms": 2000,
                       "bot_seed": 2**64 - 1}
    options["characters"] = False
    assert message["options"] == {"characters": True}


def test_start_builder_adds_static_last_and_only_when_given():
    plain = protocol.start("karibik", 0, 2, {}, move_ms=500, reserve_ms=0, bot_seed=3)
    assert "static" not in plain
    board = {"name": "caribbean"}
    message = protocol.start("karibik", 0, 2, {}, move_ms=500, reserve_ms=0, bot_seed=3, static={"board": board})
    assert message == dict(plain, static={"board": board})
    assert list(message)[-1] == "static"
    assert protocol.start("opito-bay", 0, 2, {}, 500, 0, static={})["static"] == {}


def test_start_builder_bot_seed_defaults_to_zero_and_encodes_as_uint64():
    assert protocol.start("g", 0, 2, {}, 1, 0)["bot_seed"] == 0
    frame = protocol.encode(protocol.start("g", 0, 2, {}, 1, 0, bot_seed=2**63))
    assert b"\xa8bot_seed\xcf\x80\x00\x00\x00\x00\x00\x00\x00" in frame


def test_request_builder():
    message = protocol.request(4, "play", {"hand": [1]}, [{"e": 1}], ["a", "b"], time_left_ms=1500, move_ms=1000)
    assert message == {"type": "request", "id": 4, "kind": "play", "observation": {"hand": [1]},
                       "events": [{"e": 1}], "legal": ["a", "b"], "time_left_ms": 1500, "move_ms": 1000}
    assert list(message) == ["type", "id", "kind", "observation", "events", "legal", "time_left_ms", "move_ms"]


def test_request_builder_allows_no_legal_list():
    assert protocol.request(1, "bid", {}, [], None, 10, 10)["legal"] is None


def test_end_and_bye_builders():
    assert protocol.end((2, 1), (39, 44), [], "normal") == {
        "type": "end", "ranks": [2, 1], "scores": [39, 44], "events": [], "reason": "normal"}
    assert protocol.bye() == {"type": "bye", "reason": "done"}
    assert protocol.bye("shutdown") == {"type": "bye", "reason": "shutdown"}


def test_builders_round_trip_through_frames():
    decoder = protocol.FrameDecoder()
    built = [protocol.hello("a"), protocol.start("g", 0, 2, {}, 1, 0),
             protocol.request(1, "k", {}, [], None, 1, 1), protocol.end([1], [0], [], "normal"),
             protocol.bye()]
    decoder.feed(b"".join(protocol.encode(m) for m in built))
    assert [decoder.next() for _ in built] == built


# -- parse_version ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [("1.0", (1, 0)), ("1.7", (1, 7)), ("2.0", (2, 0)),
                                           ("10.03", (10, 3)), (" 1 . 2 ", (1, 2))])
def test_parse_version(text, expected):
    assert parse_version(text) == expected


@pytest.mark.parametrize("text", ["1", "1.0.0", "", "one.zero", "1.", "v1.0", "1.0-beta"])
def test_parse_version_rejects(text):
    with pytest.raises(BadMessage) as caught:
        parse_version(text)
    assert str(caught.value) == f"protocol version must look like '1.0', got {text!r}"


def test_parse_version_truncates_a_huge_text():
    with pytest.raises(BadMessage) as caught:
        parse_version("x" * 1000)
    assert len(str(caught.value)) == 300


# -- parse_hello --------------------------------------------------------------------------------

def test_parse_hello_good():
    assert parse_hello(GOOD_HELLO) == BotHello(name="py-random", version="2.1",
                                               games=("dead-mans-draw", "opito-bay"), protocol="1.0")


def test_parse_hello_accepts_another_minor_and_extra_fields():
    parsed = parse_hello(hello_with(protocol="1.9", extra={"x": 1}, games=[]))
    assert (parsed.protocol, parsed.games) == ("1.9", ())


def test_bot_hello_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        parse_hello(GOOD_HELLO).name = "other"


@pytest.mark.parametrize("protocol_text", ["2.0", "0.9", "12.1"])
def test_parse_hello_other_major_is_a_version_mismatch(protocol_text):
    with pytest.raises(VersionMismatch) as caught:
        parse_hello(hello_with(protocol=protocol_text))
    assert str(caught.value) == (f"bot speaks protocol {protocol_text}, the arena speaks 1.1; "
                                 f"major versions must match")


@pytest.mark.parametrize("message,error", [
    (hello_with(type="action"), "expected a 'hello' message, got type 'action'"),
    (hello_with(type=...), "expected a 'hello' message, got type None"),
    ({}, "expected a 'hello' message, got type None"),
    (hello_with(protocol=...), "'hello' message has no 'protocol' field (expected a version string like '1.0')"),
    (hello_with(protocol=1.0), "field 'protocol' must be a version string like '1.0', got 1.0"),
    (hello_with(protocol="1"), "protocol version must look like '1.0', got '1'"),
    (hello_with(name=...), "'hello' message has no 'name' field (expected a string)"),
    (hello_with(name=7), "field 'name' must be a string, got 7"),
    (hello_with(name=""), "field 'name' must not be empty"),
    (hello_with(name=" \t"), "field 'name' must not be empty"),
    (hello_with(version=...), "'hello' message has no 'version' field (expected a string)"),
    (hello_with(version=1), "field 'version' must be a string, got 1"),
    (hello_with(games=...), "'hello' message has no 'games' field (expected a list of game id strings)"),
    (hello_with(games="dead-mans-draw"),
     "field 'games' must be a list of game id strings, got 'dead-mans-draw'"),
    (hello_with(games=("a",)), "field 'games' must be a list of game id strings, got ('a',)"),
    (hello_with(games=["a", 2]), "field 'games' must list game id strings, got ['a', 2]"),
])
def test_parse_hello_errors(message, error):
    with pytest.raises(BadMessage) as caught:
        parse_hello(message)
    assert str(caught.value) == error


def test_parse_hello_version_is_checked_before_other_fields():
    with pytest.raises(VersionMismatch):
        parse_hello({"type": "hello", "protocol": "2.0"})


def test_parse_hello_error_text_is_truncated():
    with pytest.raises(BadMessage) as caught:
        parse_hello(hello_with(games=["x" * 500, 1]))
    assert len(str(caught.value)) == 300
    with pytest.raises(BadMessage) as caught:
        parse_hello(hello_with(type="y" * 500))
    assert len(str(caught.value)) == 300


# -- parse_action -------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [["draw", 1], None, 0, "pass", {"card": "K6"}, False])
def test_parse_action_good(action):
    assert parse_action({"type": "action", "id": 3, "action": action}) == ActionReply(id=3, action=action)


def test_parse_action_does_not_check_the_id_range():
    assert parse_action({"type": "action", "id": -5, "action": 1}).id == -5


@pytest.mark.parametrize("message,error", [
    ({"type": "hello", "id": 1, "action": 1}, "expected a 'action' message, got type 'hello'"),
    ({"id": 1, "action": 1}, "expected a 'action' message, got type None"),
    ({"type": "action", "action": 1}, "'action' message has no 'id' field (expected the integer id of the request)"),
    ({"type": "action", "id": "1", "action": 1}, "field 'id' must be the integer id of the request, got '1'"),
    ({"type": "action", "id": 1.0, "action": 1}, "field 'id' must be the integer id of the request, got 1.0"),
    ({"type": "action", "id": True, "action": 1}, "field 'id' must be the integer id of the request, got True"),
    ({"type": "action", "id": None, "action": 1}, "field 'id' must be the integer id of the request, got None"),
    ({"type": "action", "id": 1}, "'action' message has no 'action' field"),
])
def test_parse_action_errors(message, error):
    with pytest.raises(BadMessage) as caught:
        parse_action(message)
    assert str(caught.value) == error


@pytest.mark.parametrize("request_id", [True, 2.0, "3", None])
def test_parse_action_takes_only_an_integer_id(request_id):
    """The usual reply is checked once, by exact type: a bool or any other id still goes
    through the full check, which refuses it."""
    with pytest.raises(BadMessage, match="field 'id' must be the integer id of the request"):
        parse_action({"type": "action", "id": request_id, "action": 1})
