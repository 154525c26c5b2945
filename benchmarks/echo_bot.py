"""The trivial bot of the benchmarks: answers every request with its first legal action
(or sleeps ``SLEEP_MS`` first). Raw struct + msgpack, the least work a Python bot can do."""

import os
import struct
import sys
import time

import msgpack

SLEEP = float(os.environ.get("SLEEP_MS", "0")) / 1000
inp, out = sys.stdin.buffer, sys.stdout.buffer
pack = msgpack.Packer()
while True:
    header = inp.read(4)
    if len(header) < 4:
        break
    message = msgpack.unpackb(inp.read(struct.unpack(">I", header)[0]), raw=False, strict_map_key=False)
    kind = message["type"]
    if kind == "request":
        if SLEEP:
            time.sleep(SLEEP)
        legal = message["legal"]
        payload = pack.pack({"type": "action", "id": message["id"], "action": legal[0] if legal else None})
    elif kind == "hello":
        payload = pack.pack({"type": "hello", "protocol": "1.0", "name": "echo", "version": "1", "games": []})
    elif kind == "bye":
        break
    else:
        continue
    out.write(struct.pack(">I", len(payload)) + payload)
    out.flush()
