"""A bot that misbehaves around its requests and games, for tests. ``python lifecycle.py MODE``.

Speaks the protocol with raw struct + msgpack, answering every request with the first legal
action, except where MODE says otherwise:

- ``good``: nothing else.
- ``pre-send``: right after each answer, in the same write, also "answers" the next request
  (id + 1), which does not exist yet.
- ``pre-send-half``: the same, but only the first 3 bytes of that frame go with the answer;
  the rest follows once the request has arrived.
- ``exit-after-end``: exits (status 0) as soon as it has read the ``end`` of its first game.
- ``stop-reading``: on its 3rd request, answers it, then does not read its stdin for 2 s
  (then reads on as if nothing happened).
"""

import sys
import time

from _frames import frame, out, receive, send

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"

receive()
send({"type": "hello", "protocol": "1.0", "name": f"lifecycle-{MODE}", "version": "1", "games": []})
requests = 0
rest = b""  # the unsent part of a pre-sent frame
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "end" and MODE == "exit-after-end":
        print("exiting after the end of my game", file=sys.stderr, flush=True)
        sys.exit(0)
    if message["type"] != "request":
        continue
    requests += 1
    if rest:
        out.write(rest)
        out.flush()
        rest = b""
        continue  # "answered" before it was asked
    action = message["legal"][0] if message["legal"] else None
    data = frame({"type": "action", "id": message["id"], "action": action})
    if MODE.startswith("pre-send"):
        early = frame({"type": "action", "id": message["id"] + 1, "action": action})
        if MODE == "pre-send-half":
            early, rest = early[:3], early[3:]
        data += early
    out.write(data)
    out.flush()
    if MODE == "stop-reading" and requests == 3:
        time.sleep(2)
