"""The trivial bot of the benchmarks: answers every request with its first legal action
(Karibik's bribe, which lists none: the cards 0..5). Raw struct + msgpack, the least work a
Python bot can do. ``SLEEP_MS``: sleep that long first; ``REPORT_USED``: answer with the
nanoseconds it spent on the request instead (for the fairness benchmark); ``PROBE_LOG``: play
legally, and write ``BOT_SEED USED_NS`` to stderr for every request (the fairness benchmark in a
real tournament pairs these lines with what the arena charged, by the game's bot seed);
``PROTOCOL``: the version its hello says (default 1.0; at 1.1 a game's static observation
fields come once, in ``start.static``, which it ignores like the rest of the observation)."""

import os
import struct
import sys
import time

import msgpack

SLEEP = float(os.environ.get("SLEEP_MS", "0")) / 1000
REPORT_USED = bool(os.environ.get("REPORT_USED"))
PROBE_LOG = bool(os.environ.get("PROBE_LOG"))
PROTOCOL = os.environ.get("PROTOCOL", "1.0")
bot_seed = 0
inp, out = sys.stdin.buffer, sys.stdout.buffer
pack = msgpack.Packer()
while True:
    header = inp.read(4)
    if len(header) < 4:
        break
    message = msgpack.unpackb(inp.read(struct.unpack(">I", header)[0]), raw=False, strict_map_key=False)
    started = time.perf_counter_ns()
    kind = message["type"]
    if kind == "request":
        if SLEEP:
            time.sleep(SLEEP)
        legal = message["legal"]
        action = legal[0] if legal else [0, 1, 2, 3, 4, 5]
        if REPORT_USED:
            action = time.perf_counter_ns() - started
        payload = pack.pack({"type": "action", "id": message["id"], "action": action})
    elif kind == "start":
        bot_seed = message["bot_seed"]
        continue
    elif kind == "hello":
        payload = pack.pack({"type": "hello", "protocol": PROTOCOL, "name": "echo", "version": "1", "games": []})
    elif kind == "bye":
        break
    else:
        continue
    out.write(struct.pack(">I", len(payload)) + payload)
    out.flush()
    if PROBE_LOG and kind == "request":
        # measured to the reply's flush, then logged: the log line is outside what it used
        sys.stderr.write(f"{bot_seed} {time.perf_counter_ns() - started}\n")
        sys.stderr.flush()
