"""A bot for the clock tests: ``python clocked.py SLEEP_MS``. Answers every request with its
first legal action after sleeping SLEEP_MS; its hello's name says what its stdout is
(``clocked-socket`` or ``clocked-pipe``), so a test sees what the bot itself was given."""

import os
import stat
import sys
import time

from _frames import receive, send  # beside this script

SLEEP = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.0
kind = "socket" if stat.S_ISSOCK(os.fstat(1).st_mode) else "pipe"
receive()
send({"type": "hello", "protocol": "1.0", "name": f"clocked-{kind}", "version": "1", "games": []})
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "request":
        time.sleep(SLEEP)
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
