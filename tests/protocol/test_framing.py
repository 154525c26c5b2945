"""Framing: encode, decode_payload, and the incremental FrameDecoder."""

import msgpack
import pytest

import protocol
from protocol import FrameDecoder, FrameTooLarge, MalformedFrame, decode_payload, encode

MESSAGE = {"type": "action", "id": 7, "action": ["draw", 2], "note": "héllo", "raw": b"\x00\xff"}


def frame_of(payload: bytes) -> bytes:
    return protocol.HEADER.pack(len(payload)) + payload


# -- encode -------------------------------------------------------------------------------------

def test_header_is_four_bytes_big_endian():
    assert protocol.HEADER_SIZE == 4
    assert protocol.HEADER.pack(0x01020304) == b"\x01\x02\x03\x04"
    assert protocol.DEFAULT_MAX_FRAME == 1 << 20


def test_encode_is_length_then_msgpack():
    frame = encode({"type": "bye"})
    payload = msgpack.packb({"type": "bye"}, use_bin_type=True)
    assert frame == len(payload).to_bytes(4, "big") + payload
    assert frame == b"\x00\x00\x00\x0a\x81\xa4type\xa3bye"


def test_encode_keeps_bytes_and_str_apart():
    payload = encode(MESSAGE)[4:]
    assert decode_payload(payload) == MESSAGE
    assert isinstance(decode_payload(payload)["raw"], bytes)


def test_encode_empty_map():
    assert encode({}) == b"\x00\x00\x00\x01\x80"
    assert decode_payload(b"\x80") == {}


# -- decode_payload -----------------------------------------------------------------------------

@pytest.mark.parametrize("payload,message", [
    (msgpack.packb([1, 2]), "payload must be a msgpack map, got list"),
    (msgpack.packb(3), "payload must be a msgpack map, got int"),
    (msgpack.packb("type"), "payload must be a msgpack map, got str"),
    (msgpack.packb(None), "payload must be a msgpack map, got NoneType"),
    (msgpack.packb({1: "x"}), "message keys must be strings, got 1"),
    (msgpack.packb({"a": 1, b"k": 2}, use_bin_type=True), "message keys must be strings, got b'k'"),
    (msgpack.packb({"a": 1}) + msgpack.packb({"b": 2}), "frame holds more than one msgpack value"),
    (b"\x91" * 100_000 + b"\xc0", "msgpack value is nested too deeply"),
    (b"", "payload is not valid msgpack (ValueError)"),  # msgpack: "incomplete input"
    (b"\x82\xa1a", "payload is not valid msgpack (ValueError)"),
    (b"\xc1", "payload is not valid msgpack (FormatError)"),
    (b"\x81\xa1a\xc1", "payload is not valid msgpack (FormatError)"),
    (b"\x81\xa1a\xa2\xff\xfe", "payload is not valid msgpack (UnicodeDecodeError)"),
    (b"\xd4\x01\x02", "payload must be a msgpack map, got ExtType"),
])
def test_decode_payload_rejects(payload, message):
    with pytest.raises(MalformedFrame) as caught:
        decode_payload(payload)
    assert str(caught.value) == message
    assert caught.value.__cause__ is None


def test_decode_payload_nested_map_with_non_string_keys_is_allowed_inside():
    # Only the top-level keys are message fields; nested maps (observations) may use int keys.
    assert decode_payload(msgpack.packb({"obs": {1: 2}})) == {"obs": {1: 2}}


def test_errors_are_protocol_errors():
    for error in (protocol.FrameTooLarge, protocol.MalformedFrame, protocol.BadMessage,
                  protocol.VersionMismatch):
        assert issubclass(error, protocol.ProtocolError)


# -- FrameDecoder -------------------------------------------------------------------------------

def test_empty_decoder_needs_a_header():
    decoder = FrameDecoder()
    assert decoder.max_frame == protocol.DEFAULT_MAX_FRAME
    assert decoder.next() is None
    assert decoder.pending() == 0
    assert decoder.needed() == 4


def test_one_frame_in_one_feed():
    decoder = FrameDecoder()
    decoder.feed(encode(MESSAGE))
    assert decoder.next() == MESSAGE
    assert decoder.next() is None
    assert decoder.pending() == 0
    assert decoder.needed() == 4


def test_byte_by_byte_feed_tracks_needed_and_pending():
    frame = encode({"type": "bye"})  # 4 + 10 bytes
    decoder = FrameDecoder()
    seen = []
    for count, byte in enumerate(frame[:-1], 1):
        decoder.feed(bytes([byte]))
        assert decoder.next() is None
        seen.append((decoder.pending(), decoder.needed()))
    assert seen == [(n, 4 - n) for n in range(1, 4)] + [(n, 14 - n) for n in range(4, 14)]
    decoder.feed(frame[-1:])
    assert decoder.needed() == 0
    assert decoder.next() == {"type": "bye"}
    assert decoder.pending() == 0


def test_several_frames_in_one_feed_come_out_in_order():
    messages = [{"type": "a", "i": i} for i in range(5)]
    decoder = FrameDecoder()
    decoder.feed(b"".join(encode(m) for m in messages) + encode({"type": "tail"})[:6])
    assert [decoder.next() for _ in range(5)] == messages
    assert decoder.next() is None
    assert decoder.pending() == 6
    assert decoder.needed() == len(encode({"type": "tail"})) - 6


def test_frame_split_across_feeds_at_every_point():
    first, second = encode(MESSAGE), encode({"type": "bye"})
    stream = first + second
    for cut in range(len(stream) + 1):
        decoder = FrameDecoder()
        decoder.feed(stream[:cut])
        got = []
        while (message := decoder.next()) is not None:
            got.append(message)
        decoder.feed(stream[cut:])
        while (message := decoder.next()) is not None:
            got.append(message)
        assert got == [MESSAGE, {"type": "bye"}], cut


def test_needed_is_zero_when_a_frame_and_more_are_buffered():
    decoder = FrameDecoder()
    decoder.feed(encode({"type": "bye"}) * 2)
    assert decoder.needed() == 0


def test_oversize_is_detected_from_the_header_alone():
    decoder = FrameDecoder(max_frame=100)
    decoder.feed(b"\x00\x00\x00\x65")  # declares 101 bytes, sends none of them
    with pytest.raises(FrameTooLarge) as caught:
        decoder.next()
    assert str(caught.value) == "frame of 101 bytes exceeds the limit of 100 bytes"
    assert (caught.value.declared, caught.value.limit) == (101, 100)


def test_four_gib_header_is_rejected_without_waiting_for_the_payload():
    decoder = FrameDecoder()
    decoder.feed(b"\xff\xff\xff\xff")
    with pytest.raises(FrameTooLarge) as caught:
        decoder.next()
    assert str(caught.value) == f"frame of {2**32 - 1} bytes exceeds the limit of {1 << 20} bytes"
    assert decoder.needed() == 2**32 - 1  # needed() reports, it does not judge


def test_a_frame_of_exactly_the_limit_is_accepted():
    payload = msgpack.packb({"k": "x" * 50})
    decoder = FrameDecoder(max_frame=len(payload))
    decoder.feed(frame_of(payload))
    assert decoder.next() == {"k": "x" * 50}
    decoder = FrameDecoder(max_frame=len(payload) - 1)
    decoder.feed(frame_of(payload)[:4])
    with pytest.raises(FrameTooLarge):
        decoder.next()


def test_oversize_after_good_frames_is_raised_once_they_are_taken():
    decoder = FrameDecoder(max_frame=20)
    decoder.feed(encode({"type": "ok"}) + b"\x00\x00\x00\x15")
    assert decoder.next() == {"type": "ok"}
    with pytest.raises(FrameTooLarge):
        decoder.next()


def test_malformed_frame_is_consumed_and_the_next_frame_still_decodes():
    decoder = FrameDecoder()
    decoder.feed(frame_of(msgpack.packb([1])) + encode({"type": "bye"}))
    with pytest.raises(MalformedFrame, match="got list"):
        decoder.next()
    assert decoder.next() == {"type": "bye"}


def test_zero_length_frame_is_malformed():
    decoder = FrameDecoder()
    decoder.feed(b"\x00\x00\x00\x00")
    assert decoder.needed() == 0
    with pytest.raises(MalformedFrame, match=r"^payload is not valid msgpack \(ValueError\)$"):
        decoder.next()
    assert decoder.pending() == 0


def test_feed_accepts_bytearray_and_memoryview():
    frame = encode({"type": "bye"})
    decoder = FrameDecoder()
    decoder.feed(bytearray(frame[:5]))
    decoder.feed(memoryview(frame)[5:])
    assert decoder.next() == {"type": "bye"}


def test_text_where_a_header_belongs_is_quoted_in_the_oversize_error():
    decoder = FrameDecoder()
    decoder.feed(b"Error occurred during initialization of VM\nCould not reserve enough space\n")
    with pytest.raises(FrameTooLarge) as caught:
        decoder.next()
    assert str(caught.value) == ("the bot wrote text to stdout: 'Error occurred during initialization"
                                 " of VM\\nCould not reserve enough space' (stdout carries only frames;"
                                 " write logs to stderr)")
    assert caught.value.declared == int.from_bytes(b"Erro", "big")


def test_long_stray_text_is_cut_at_200_bytes():
    decoder = FrameDecoder()
    decoder.feed(b"x" * 300)
    with pytest.raises(FrameTooLarge) as caught:
        decoder.next()
    assert caught.value.text == "x" * 200 + "..."


def test_a_binary_oversize_header_is_not_called_text():
    decoder = FrameDecoder()
    decoder.feed(b"\x7f\xff\xff\xffabc")
    with pytest.raises(FrameTooLarge) as caught:
        decoder.next()
    assert caught.value.text is None


# -- FrameDecoder.take (feed, then next; a whole frame alone is decoded in place) ----------------

def test_take_decodes_a_whole_frame_and_buffers_nothing():
    decoder = FrameDecoder()
    assert decoder.take(encode(MESSAGE)) == MESSAGE
    assert decoder.pending() == 0


@pytest.mark.parametrize("cut", [1, 3, 4, 5, 20])
def test_take_of_a_frame_in_two_parts_gives_it_with_the_second(cut):
    frame = encode(MESSAGE)
    decoder = FrameDecoder()
    assert decoder.take(frame[:cut]) is None
    assert decoder.take(frame[cut:]) == MESSAGE
    assert decoder.pending() == 0


def test_take_of_two_frames_gives_the_first_and_keeps_the_second():
    decoder = FrameDecoder()
    assert decoder.take(encode({"type": "a"}) + encode({"type": "b"})) == {"type": "a"}
    assert decoder.next() == {"type": "b"}


def test_take_judges_as_next_does():
    decoder = FrameDecoder(max_frame=20)
    with pytest.raises(FrameTooLarge) as caught:
        decoder.take(b"\x00\x00\x00\x15" + b"\x00" * 21)  # a whole frame, one byte over the limit
    assert (caught.value.declared, caught.value.limit) == (21, 20)
    decoder = FrameDecoder()
    with pytest.raises(MalformedFrame, match="got list"):
        decoder.take(frame_of(msgpack.packb([1])))
    assert decoder.pending() == 0  # consumed: the next frame decodes
    with pytest.raises(MalformedFrame, match=r"^payload is not valid msgpack \(ValueError\)$"):
        decoder.take(b"\x00\x00\x00\x00")
    with pytest.raises(MalformedFrame, match="more than one msgpack value"):
        decoder.take(frame_of(msgpack.packb(1) + msgpack.packb({})))
    assert decoder.take(encode({"type": "bye"})) == {"type": "bye"}
