"""Property tests: whatever bytes or messages a bot sends, the protocol layer raises only
:class:`protocol.ProtocolError` subclasses (never a stray ``ValueError`` or ``TypeError``)."""

import math

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protocol
from protocol import (BadMessage, FrameDecoder, FrameTooLarge, MalformedFrame, ProtocolError,
                      VersionMismatch, decode_payload, parse_action, parse_hello, parse_version)

# Deterministic, no example database, no deadline (the machine may be loaded); 100 examples
# each keep the file to a few seconds.
FUZZ = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# Small alphabets keep generation cheap; the decoder does not care which characters they are.
names = st.text("abcé\x00", max_size=4)
scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.floats(allow_nan=False) | names | st.binary(max_size=6))
keys = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | names | st.binary(max_size=4)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=8,
)
# Framing does not look inside payloads: flat maps exercise it as well as deep ones, cheaper.
flat_maps = st.dictionaries(names, scalars, max_size=3)


@st.composite
def chunked(draw, data: bytes):
    """``data`` cut into consecutive pieces at arbitrary points (empty pieces included)."""
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


def drain(decoder: FrameDecoder) -> tuple[list, str | None]:
    """Take every complete message; stop at an oversize frame (a connection ends there)."""
    got = []
    while True:
        try:
            message = decoder.next()
        except FrameTooLarge:
            return got, "too-large"
        except MalformedFrame:
            got.append("malformed")
            continue
        if message is None:
            return got, None
        assert isinstance(message, dict)
        assert all(isinstance(key, str) for key in message)
        got.append(message)


def run_stream(pieces: list[bytes], max_frame: int) -> tuple[list, str | None]:
    decoder = FrameDecoder(max_frame)
    got = []
    for piece in pieces:
        decoder.feed(piece)
        more, stop = drain(decoder)
        got += more
        if stop:
            return got, stop
    return got, None


@st.composite
def streams(draw):
    """Frames with small declared lengths (so payloads get decoded) and arbitrary payload bytes,
    some holding real messages, then optional raw garbage."""
    parts = []
    for payload in draw(st.lists(st.binary(max_size=30) | flat_maps.map(msgpack.packb), max_size=4)):
        parts.append(protocol.HEADER.pack(len(payload)) + payload)
    parts.append(draw(st.binary(max_size=12)))
    return b"".join(parts)


@FUZZ
@given(st.data(), st.binary(max_size=200) | streams(), st.integers(0, 1 << 20))
def test_decoder_on_arbitrary_bytes_raises_only_protocol_errors(data, raw, max_frame):
    run_stream(data.draw(chunked(raw)), max_frame)


@FUZZ
@given(st.data(), streams(), st.integers(0, 64))
def test_decoder_result_does_not_depend_on_chunking(data, stream, max_frame):
    assert run_stream(data.draw(chunked(stream)), max_frame) == run_stream([stream], max_frame)


@FUZZ
@given(st.data(), st.lists(flat_maps, max_size=4))
def test_decoder_returns_every_encoded_message(data, messages):
    stream = b"".join(protocol.encode(m) for m in messages)
    got, stop = run_stream(data.draw(chunked(stream)), protocol.DEFAULT_MAX_FRAME)
    assert (got, stop) == (messages, None)


@FUZZ
@given(values)
def test_decode_payload_of_any_msgpack_value(value):
    payload = msgpack.packb(value, use_bin_type=True)
    is_message = isinstance(value, dict) and all(isinstance(key, str) for key in value)
    try:
        message = decode_payload(payload)
    except MalformedFrame:
        assert not is_message
    else:
        assert is_message
        assert message == value


@FUZZ
@given(st.binary(max_size=100))
def test_decode_payload_of_any_bytes(payload):
    try:
        message = decode_payload(payload)
    except MalformedFrame:
        return
    assert isinstance(message, dict) and all(isinstance(key, str) for key in message)


@pytest.mark.parametrize("bomb", [
    b"\x91" * 100_000 + b"\xc0",        # [[[[...nil...]]]]
    b"\x81\xa1k" * 50_000 + b"\xc0",    # {"k": {"k": ...nil...}}
], ids=["arrays", "maps"])
def test_deep_nesting_bomb_is_malformed_and_the_stream_goes_on(bomb):
    with pytest.raises(MalformedFrame, match="^msgpack value is nested too deeply$"):
        decode_payload(bomb)
    decoder = FrameDecoder()
    decoder.feed(protocol.HEADER.pack(len(bomb)) + bomb + protocol.encode({"type": "bye"}))
    assert drain(decoder) == (["malformed", {"type": "bye"}], None)


# -- message parsers on arbitrary maps ------------------------------------------------------------

# The parsers look at top-level fields only, so values need no depth; "games" lists mix types.
field_values = (scalars | st.sampled_from(["hello", "action", "1.0", "1.5", "2.0", "1", "", " "])
                | st.lists(names | st.integers(), max_size=3) | flat_maps)
GOOD_HELLO = {"type": "hello", "protocol": "1.0", "name": "bot", "version": "1", "games": ["g"]}
GOOD_ACTION = {"type": "action", "id": 1, "action": "pass"}
DROPPED = object()


def mutants(good: dict):
    """``good`` with up to two fields dropped or replaced, plus up to two extra fields: most
    examples get past the first checks, so every later check is reached."""

    @st.composite
    def build(draw):
        message = {**draw(st.dictionaries(names, field_values, max_size=2)), **good}
        for key in draw(st.sets(st.sampled_from(sorted(good)), max_size=2)):
            value = draw(st.just(DROPPED) | st.lists(names | st.integers(), min_size=1, max_size=3) | field_values)
            if value is DROPPED:
                del message[key]
            else:
                message[key] = value
        return message

    return build()


@FUZZ
@given(mutants(GOOD_HELLO))
def test_parse_hello_raises_only_bad_message_or_version_mismatch(message):
    try:
        hello = parse_hello(message)
    except (BadMessage, VersionMismatch):
        return
    assert message["type"] == "hello"
    assert parse_version(hello.protocol)[0] == protocol.PROTOCOL_VERSION[0]
    assert isinstance(hello.name, str) and hello.name.strip()
    assert isinstance(hello.version, str)
    assert all(isinstance(game, str) for game in hello.games)


@FUZZ
@given(mutants(GOOD_ACTION))
def test_parse_action_raises_only_bad_message(message):
    try:
        reply = parse_action(message)
    except BadMessage:
        return
    assert message["type"] == "action"
    assert type(reply.id) is int
    assert reply.action is message["action"] or (
        isinstance(reply.action, float) and math.isnan(reply.action))


@FUZZ
@given(st.text(max_size=12) | st.from_regex(r"\A[0-9 +_-]{0,4}\.[0-9 +_-]{0,4}\Z"))
def test_parse_version_raises_only_bad_message(text):
    try:
        major, minor = parse_version(text)
    except BadMessage:
        return
    assert isinstance(major, int) and isinstance(minor, int)


def test_parse_version_with_a_huge_number_is_a_bad_message():
    # int() refuses more than 4300 digits with ValueError; that must stay a BadMessage.
    with pytest.raises(BadMessage):
        parse_version("9" * 5000 + ".0")


def test_protocol_errors_share_one_base():
    assert all(issubclass(e, ProtocolError) for e in (BadMessage, VersionMismatch, MalformedFrame, FrameTooLarge))
