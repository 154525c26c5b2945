"""A test bot that fingerprints every byte the arena sends it: ``recorder.py VERSION [board]``.

It answers ``hello`` with protocol VERSION, every request with its first legal action (a
Karibik bribe, which lists none: the cards 0..5), and on each ``end`` writes one stderr line
``GAME <frames> <sha256 of every frame of the game, start to end, as received>``; after
``start`` it also writes ``STATIC <sorted keys of start.static, comma-separated, or ->``.
With ``board`` it reads ``observation["board"]`` in every request (and so crashes where a
protocol 1.1 arena left it out). Standard library and msgpack only.
"""

import hashlib
import struct
import sys

import msgpack

VERSION = sys.argv[1]
READS_BOARD = sys.argv[2:] == ["board"]
inp, out = sys.stdin.buffer, sys.stdout.buffer


def send(message):
    payload = msgpack.packb(message, use_bin_type=True)
    out.write(struct.pack(">I", len(payload)) + payload)
    out.flush()


digest, frames = hashlib.sha256(), 0
while True:
    header = inp.read(4)
    if len(header) < 4:
        break
    payload = inp.read(struct.unpack(">I", header)[0])
    message = msgpack.unpackb(payload, raw=False, strict_map_key=False)
    kind = message["type"]
    if kind == "hello":
        send({"type": "hello", "protocol": VERSION, "name": "recorder", "version": "1", "games": []})
        continue
    if kind == "bye":
        break
    if kind == "start":
        digest, frames = hashlib.sha256(), 0
        static = message.get("static")
        print("STATIC", ",".join(sorted(static)) or "-" if static is not None else "absent", file=sys.stderr)
    digest.update(header + payload)
    frames += 1
    if kind == "request":
        if READS_BOARD:
            message["observation"]["board"]
        legal = message["legal"]
        send({"type": "action", "id": message["id"], "action": legal[0] if legal else [0, 1, 2, 3, 4, 5]})
    elif kind == "end":
        print("GAME", frames, digest.hexdigest(), file=sys.stderr, flush=True)
