"""Framing for the test bots that share it: one msgpack map per length-prefixed frame."""

import struct
import sys

import msgpack

out = sys.stdout.buffer
inp = sys.stdin.buffer


def frame(message):
    payload = msgpack.packb(message, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def send(message):
    out.write(frame(message))
    out.flush()


def receive():
    """The next message; exits at end of input."""
    header = inp.read(4)
    if len(header) < 4:
        sys.exit(0)
    (length,) = struct.unpack(">I", header)
    return msgpack.unpackb(inp.read(length), raw=False, strict_map_key=False)
