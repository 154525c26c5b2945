"""A bot that misbehaves around its requests and games, for tests. ``python lifecycle.py MODE``.

Speaks the protocol with raw struct + msgpack, answering every request with the first legal
action, except where MODE says otherwise:

- ``good``: nothing else.
- ``pre-send``: right after each answer, in the same write, also "answers" the next request
  (id + 1), which does not exist yet.
- ``pre-send-half``: the same, but only the first 3 bytes of that frame go with the answer;
  the rest follows once the request has arrived.
- ``exit-after-end``: exits (status 0) as soon as it has read the ``end`` of its first game.
- ``exit-3-after-end``: the same with status 3.
- ``exit-3-on-usr1``: after the ``end`` of its first game, waits for SIGUSR1, then exits with
  status 3 (a test decides when: after the arena has looked at it between games).
- ``close-after-end``: closes its stdout after the ``end`` of its first game, and waits for
  its stdin to end.
- ``write-after-end``: writes 12 bytes that are no frame after the ``end`` of its first game.
- ``stale-after-end``: answers its last request of each game a second time after ``end`` (a
  stale reply, which SPEC section 8 allows).
- ``stop-reading``: on its 3rd request, answers it, then does not read its stdin for 2 s
  (then reads on as if nothing happened).
- ``slow-bye``: takes 1 s to exit once told ``bye`` (or once its stdin ends): it is still
  alive for a while after the arena let it go.
- ``slow-after-move``: after each answer, reads nothing for 1 s (a game that its move ended
  leaves its ``end`` unread that long).
"""

import os
import signal
import sys
import time

from _frames import frame, out, receive, send

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
if MODE == "exit-3-on-usr1":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # kept for sigwait below

receive()
send({"type": "hello", "protocol": "1.0", "name": f"lifecycle-{MODE}", "version": "1", "games": []})
requests = 0
rest = b""  # the unsent part of a pre-sent frame
while True:
    try:
        message = receive()
    except SystemExit:  # the end of its input
        if MODE == "slow-bye":
            time.sleep(1)
        raise
    if message["type"] == "bye":
        if MODE == "slow-bye":
            time.sleep(1)
        sys.exit(0)
    if message["type"] == "end" and MODE == "exit-3-on-usr1":
        signal.sigwait({signal.SIGUSR1})
        sys.exit(3)
    if message["type"] == "end" and MODE in ("exit-after-end", "exit-3-after-end"):
        print("exiting after the end of my game", file=sys.stderr, flush=True)
        sys.exit(3 if MODE == "exit-3-after-end" else 0)
    if message["type"] == "end" and MODE == "close-after-end":
        print("closing my stdout after the end of my game", file=sys.stderr, flush=True)
        out.close()
        os.close(1)
        while True:
            receive()  # exits at the end of input
    if message["type"] == "end" and MODE == "write-after-end":
        out.write(b"between12345")
        out.flush()
    if message["type"] == "end" and MODE == "stale-after-end" and requests:
        out.write(last)
        out.flush()
    if message["type"] != "request":
        continue
    requests += 1
    if rest:
        out.write(rest)
        out.flush()
        rest = b""
        continue  # "answered" before it was asked
    action = message["legal"][0] if message["legal"] else None
    data = last = frame({"type": "action", "id": message["id"], "action": action})
    if MODE.startswith("pre-send"):
        early = frame({"type": "action", "id": message["id"] + 1, "action": action})
        if MODE == "pre-send-half":
            early, rest = early[:3], early[3:]
        data += early
    out.write(data)
    out.flush()
    if MODE == "stop-reading" and requests == 3:
        time.sleep(2)
    if MODE == "slow-after-move":
        time.sleep(1)
