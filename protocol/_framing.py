"""Framing: a 4-byte big-endian length, then that many bytes holding one msgpack map.

:func:`encode` turns a message into a frame; :class:`FrameDecoder` turns a byte stream back
into messages incrementally, rejecting an oversize frame as soon as its header arrives (so a
bot that declares a 4 GiB frame costs the arena nothing).
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from ._errors import FrameTooLarge, MalformedFrame

HEADER = struct.Struct(">I")
HEADER_SIZE = HEADER.size
#: Default maximum payload size of one frame (1 MiB).
DEFAULT_MAX_FRAME = 1 << 20
#: How much of a text "header" an oversize error quotes.
TEXT_SHOWN = 200
_PRINTABLE = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D}


def stray_text(buffer: bytes | bytearray) -> str | None:
    """The text at the start of ``buffer`` if its 4 header bytes are printable ASCII, else
    ``None``: then the peer wrote text, not a frame (every header of a frame under 0x20000000
    bytes starts with a byte below 0x20, so no frame within any sane limit is mistaken)."""
    if len(buffer) < HEADER_SIZE or not all(byte in _PRINTABLE for byte in buffer[:HEADER_SIZE]):
        return None
    text = bytes(buffer[:TEXT_SHOWN]).decode("utf-8", errors="replace").strip()
    return text + "..." if len(buffer) > TEXT_SHOWN else text


def encode(message: dict[str, Any]) -> bytes:
    """Return the frame (header + payload) of one message."""
    payload = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(payload)) + payload


class FrameEncoder:
    """Encodes messages into frames with one reusable msgpack packer (cheaper per message
    than :func:`encode`). Not shared between tasks: give each connection its own."""

    def __init__(self) -> None:
        self._pack = msgpack.Packer(use_bin_type=True).pack

    def encode(self, message: dict[str, Any]) -> bytes:
        payload = self._pack(message)
        return HEADER.pack(len(payload)) + payload


def decode_payload(payload: bytes | memoryview) -> dict[str, Any]:
    """Decode one frame payload into a message map.

    Raises :class:`MalformedFrame` unless the payload is exactly one msgpack map whose keys
    are all strings.
    """
    try:
        message = msgpack.unpackb(payload, raw=False, strict_map_key=False)
    except msgpack.ExtraData:
        raise MalformedFrame("frame holds more than one msgpack value") from None
    except msgpack.StackError:
        raise MalformedFrame("msgpack value is nested too deeply") from None
    except Exception as error:  # msgpack raises several unrelated types for bad bytes
        raise MalformedFrame(f"payload is not valid msgpack ({type(error).__name__})") from None
    if not isinstance(message, dict):
        raise MalformedFrame(f"payload must be a msgpack map, got {type(message).__name__}")
    for key in message:
        if not isinstance(key, str):
            raise MalformedFrame(f"message keys must be strings, got {key!r}")
    return message


class FrameDecoder:
    """Incremental decoder: ``feed`` bytes, then take complete messages with ``next``.

    Args:
      max_frame: the largest accepted payload in bytes; a larger declared length raises
        :class:`FrameTooLarge` from :meth:`next` without buffering the payload.
    """

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()

    def feed(self, data: bytes) -> None:
        self._buffer += data

    def take(self, data: bytes) -> dict[str, Any] | None:
        """``feed(data)``, then :meth:`next`; cheaper when ``data`` is exactly one whole frame
        and nothing else is buffered (the usual reply): it is decoded in place, never copied
        into the buffer. Raises as :meth:`next` does."""
        if not self._buffer and len(data) >= HEADER_SIZE:
            (length,) = HEADER.unpack_from(data)
            if length <= self.max_frame and len(data) == HEADER_SIZE + length:
                return decode_payload(memoryview(data)[HEADER_SIZE:])
        self._buffer += data
        return self.next()

    def pending(self) -> int:
        """Bytes received but not yet consumed as a complete frame."""
        return len(self._buffer)

    def needed(self) -> int:
        """How many more bytes the next frame needs (at least 1 when nothing is complete)."""
        if len(self._buffer) < HEADER_SIZE:
            return HEADER_SIZE - len(self._buffer)
        (length,) = HEADER.unpack_from(self._buffer)
        return max(HEADER_SIZE + length - len(self._buffer), 0)

    def next(self) -> dict[str, Any] | None:
        """Return the next complete message, or ``None`` if more bytes are needed.

        Raises :class:`FrameTooLarge` or :class:`MalformedFrame`.
        """
        buffer = self._buffer
        if len(buffer) < HEADER_SIZE:
            return None
        (length,) = HEADER.unpack_from(buffer)
        if length > self.max_frame:
            raise FrameTooLarge(length, self.max_frame, stray_text(buffer))
        end = HEADER_SIZE + length
        if len(buffer) < end:
            return None
        payload = bytes(buffer[HEADER_SIZE:end])
        del buffer[:end]
        return decode_payload(payload)
