"""A hostile bot for the sandbox tests. ``python hostile.py MODE MARKER``.

Plays like a normal bot (first legal action) until its third request, then misbehaves as
MODE says. MARKER is only there so the test can find every process this bot ever started
(it stays in the command line of forked children and is passed to spawned ones).

Modes: flood-stderr (a thread writes to stderr without end from the start), flood-stdout
(endless stale replies), never-read (stops reading stdin after the handshake), setsid-child
(leaves a child in a new session), fork-bomb, allocate (memory without limit), spin (burns
the CPU instead of answering), ignore-sigterm (and ignores bye), exit-zero (exits with 0),
close-stdout (closes stdout, keeps running), nest-bomb (a deeply nested msgpack value),
answer-twice, attack (``hostile.py attack MARKER DATABASE REVERSED-VICTIM``: on its third
request it tries to overwrite DATABASE, to SIGKILL every process whose command line holds
VICTIM (found by a scan of /proc; given reversed so that its own command line does not hold
it), and to leave a child in a new session; it reports each attempt on stderr
(``WROTE``/``KILLED`` on success) and plays on).
"""

import errno
import os
import signal
import struct
import subprocess
import sys
import threading
import time

import msgpack

MODE, MARKER = sys.argv[1], sys.argv[2]
out = sys.stdout.buffer

from _frames import receive  # noqa: E402  (beside this script)


def send_raw(payload: bytes) -> None:
    out.write(struct.pack(">I", len(payload)) + payload)
    out.flush()


def send(message) -> None:
    send_raw(msgpack.packb(message, use_bin_type=True))


def attack(database: str, victim: str) -> None:
    print(f"UID {os.getuid()}", file=sys.stderr, flush=True)
    try:
        with open(database, "rb") as db:
            db.read()
        print("READ the database", file=sys.stderr, flush=True)
    except OSError as error:
        print(f"DENIED reading {errno.errorcode.get(error.errno, error.errno)}", file=sys.stderr, flush=True)
    try:
        with open(database, "r+b") as db:
            db.write(b"FORGED")
        print("WROTE the database", file=sys.stderr, flush=True)
    except OSError as error:
        print(f"DENIED database {errno.errorcode.get(error.errno, error.errno)}", file=sys.stderr, flush=True)
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if victim.encode() not in cmdline.read():
                    continue
            os.kill(int(entry), signal.SIGKILL)
            print(f"KILLED {entry}", file=sys.stderr, flush=True)
        except (OSError, ValueError) as error:
            print(f"DENIED kill {entry} {type(error).__name__}", file=sys.stderr, flush=True)
    subprocess.Popen([sys.executable, "-c", "import os, time; time.sleep(600)", MARKER],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)


def flood_stderr() -> None:
    chunk = b"x" * 65536 + b"\n"
    while True:
        os.write(2, chunk)


if MODE == "ignore-sigterm":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
receive()
send({"type": "hello", "protocol": "1.0", "name": f"hostile-{MODE}", "version": "1", "games": []})
if MODE == "flood-stderr":
    threading.Thread(target=flood_stderr, daemon=True).start()
if MODE == "never-read":
    time.sleep(600)
if MODE == "setsid-child":
    # A session of its own (start_new_session: setsid() in the child before exec; calling it
    # again in the child failed, and the child died at once, so nothing was ever left behind)
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", MARKER],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)
requests = 0
while True:
    message = receive()
    if message["type"] == "bye":
        if MODE == "ignore-sigterm":
            time.sleep(600)
        sys.exit(0)
    if message["type"] != "request":
        continue
    requests += 1
    reply = {"type": "action", "id": message["id"], "action": message["legal"][0]}
    if requests == 3:
        if MODE == "flood-stdout":
            stale = msgpack.packb({"type": "action", "id": 1, "action": "one"})
            frame = struct.pack(">I", len(stale)) + stale
            while True:
                out.write(frame * 256)
        elif MODE == "fork-bomb":
            while True:
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.01)
        elif MODE == "allocate":
            hoard = []
            while True:
                hoard.append(bytearray(16 * 2**20))
        elif MODE == "spin":
            while True:
                pass
        elif MODE == "exit-zero":
            sys.exit(0)
        elif MODE == "close-stdout":
            os.close(1)
            time.sleep(600)
        elif MODE == "nest-bomb":
            send_raw(b"\x91" * 200_000 + b"\xc0")
            time.sleep(600)
        elif MODE == "answer-twice":
            send(reply)
        elif MODE == "attack":
            attack(sys.argv[3], sys.argv[4][::-1])
    send(reply)
