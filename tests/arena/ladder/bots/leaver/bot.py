"""Test bot for the ladder: plays the first legal action, and exits (status 3) right after the
end of its game: every process misbehaves between games once."""

import struct
import sys

import msgpack

out, inp = sys.stdout.buffer, sys.stdin.buffer


def send(message):
    payload = msgpack.packb(message)
    out.write(struct.pack(">I", len(payload)) + payload)
    out.flush()


def receive():
    header = inp.read(4)
    if len(header) < 4:
        sys.exit(0)
    return msgpack.unpackb(inp.read(struct.unpack(">I", header)[0]), raw=False, strict_map_key=False)


receive()
send({"type": "hello", "protocol": "1.0", "name": "leaver", "version": "1", "games": []})
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "end":
        print("leaver: off between games", file=sys.stderr, flush=True)
        sys.exit(3)
    if message["type"] == "request":
        send({"type": "action", "id": message["id"], "action": message["legal"][0] if message["legal"] else None})
