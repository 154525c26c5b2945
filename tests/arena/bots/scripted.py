"""A deliberately well- or ill-behaved bot for tests. ``python scripted.py MODE``.

It speaks the protocol with raw struct + msgpack (not the SDK), answering every request
with the first legal action, except where MODE says to misbehave:

good, no-start-exit (exits before hello), exit-in-handshake, never-answer, late-answer
(sleeps 2 s on request 3), stale-id (answers request 2 with id 1), future-id, oversize
(declares a 4 GiB frame), garbage (non-msgpack bytes), wrong-type, illegal, exit-mid-game,
not-a-map, bad-hello, old-version, half-frame, answer-twice, spawn-child (leaves a
sleeping child in its process group).
"""

import struct
import subprocess
import sys
import time

import msgpack

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
#: what the bad-frame modes write instead of their third answer (then they hang)
BAD_BYTES = {
    "oversize": struct.pack(">I", 0xFFFFFFF0) + b"\x00" * 16,
    "garbage": struct.pack(">I", 3) + b"\xc1\xc1\xc1",
    "not-a-map": struct.pack(">I", 3) + msgpack.packb([1, 2]),
    "half-frame": struct.pack(">I", 100) + b"\x81",
}
from _frames import out, receive, send  # noqa: E402  (beside this script)


if MODE == "no-start-exit":
    sys.exit(3)
hello = receive()
if MODE == "exit-in-handshake":
    print("giving up during the handshake", file=sys.stderr, flush=True)
    sys.exit(4)
if MODE == "bad-hello":
    send({"type": "hello", "protocol": "1.0", "name": "", "version": "1", "games": []})
elif MODE == "old-version":
    send({"type": "hello", "protocol": "0.9", "name": "old", "version": "1", "games": []})
else:
    send({"type": "hello", "protocol": "1.0", "name": f"scripted-{MODE}", "version": "1", "games": []})
if MODE == "spawn-child":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
requests = 0
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] != "request":
        continue
    requests += 1
    action = message["legal"][0] if message["legal"] else None
    reply = {"type": "action", "id": message["id"], "action": action}
    if requests == 3:
        if MODE == "never-answer":
            time.sleep(600)
        elif MODE == "late-answer":
            time.sleep(2)
        elif MODE == "stale-id":
            reply["id"] = message["id"] - 1
        elif MODE == "future-id":
            reply["id"] = message["id"] + 5
        elif MODE in BAD_BYTES:
            out.write(BAD_BYTES[MODE])
            out.flush()
            time.sleep(600)
        elif MODE == "wrong-type":
            reply = {"type": "hello", "protocol": "1.0", "name": "x", "version": "1", "games": []}
        elif MODE == "illegal":
            reply["action"] = "definitely-not-legal"
        elif MODE == "exit-mid-game":
            sys.exit(0)
        elif MODE == "answer-twice":
            send(reply)
    send(reply)
