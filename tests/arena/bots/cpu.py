"""A bot for the cgroup tests: ``python cpu.py MODE [ARG] MARKER``. Answers every request with
its first legal action; MARKER only lets the test find every process it started (it stays in
the command line of forked children).

Modes:
- ``busy MS``: spends MS milliseconds of its own CPU time on every move (a busy loop on the
  thread's CPU clock, so a move takes longer when something else holds the CPU).
- ``burner N``: after its hello, forks N children that each call ``setsid()`` (a scheduler
  autogroup of their own) and burn CPU while it is not on move in one of its games: it stops
  them (SIGSTOP) when a request arrives and lets them go on (SIGCONT) once it has answered,
  and stops them at ``end``. So it answers at once, as a bot that wants to slow the others
  would: burning during its own move would only slow itself. The children run as
  ``SCHED_IDLE``: that changes nothing between autogroups (each weighs as much as any other).
- ``counter``: a forked child spins and counts in shared memory; on each request the bot
  writes ``IDLE n`` on stderr: the child's count since the bot's last reply (while it was not
  on move, and the moment between its thaw and its reading the count). Each move sleeps 20 ms.
- ``fork-cpu S``: on its first request, forks 4 children that each burn S seconds of CPU, and
  answers once they are done.
- ``hog-process``, ``hog-children``, ``hog-tmp``, ``hog-shm``: from its third request, holds
  ever more memory (in its own process, in forked children, in files under /tmp, or under
  /dev/shm, named after MARKER) until the kernel kills it; answers every request meanwhile.
"""

import mmap
import os
import signal
import struct
import sys
import time

from _frames import receive, send  # beside this script

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 3 else None
MARKER = sys.argv[-1]


def spin_for(seconds):
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def burn_forever():
    os.setsid()
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    while True:
        pass


def child(work):
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    return pid


def signal_all(pids, number):
    for pid in pids:
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass


def counting(shared):
    count = 0
    while True:
        count += 1
        if count % 1024 == 0:
            shared[:8] = struct.pack("q", count)


hoard = []


def hog(requests):
    if MODE == "hog-process":
        for _ in range(4):
            hoard.append(bytearray(32 * 2**20))
    elif MODE == "hog-children":
        if requests == 3:
            for _ in range(8):
                child(lambda: (bytearray(96 * 2**20), time.sleep(600)))
            time.sleep(1)  # they have allocated (or were killed) before it answers
    else:
        folder = "/tmp" if MODE == "hog-tmp" else "/dev/shm"
        try:
            with open(f"{folder}/{MARKER}-{requests}", "wb") as file:
                for _ in range(8):
                    file.write(b"x" * 2**24)
        except OSError:  # the tmpfs is full before the memory: hold memory instead
            hoard.append(bytearray(64 * 2**20))


receive()
send({"type": "hello", "protocol": "1.0", "name": f"cpu-{MODE}", "version": "1", "games": []})
shared = None
burners = []
if MODE == "burner":
    burners = [child(burn_forever) for _ in range(int(ARG))]
    signal_all(burners, signal.SIGSTOP)  # until the first game
elif MODE == "counter":
    shared = mmap.mmap(-1, 8)
    child(lambda: counting(shared))
last = 0
requests = 0
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] in ("start", "end"):
        signal_all(burners, signal.SIGCONT if message["type"] == "start" else signal.SIGSTOP)
    if message["type"] != "request":
        continue
    signal_all(burners, signal.SIGSTOP)
    requests += 1
    if MODE == "busy":
        spin_for(float(ARG) / 1000)
    elif MODE == "counter":
        now = struct.unpack("q", shared[:8])[0]
        print(f"IDLE {now - last}", file=sys.stderr, flush=True)
        time.sleep(0.02)
        last = struct.unpack("q", shared[:8])[0]
    elif MODE == "fork-cpu" and requests == 1:
        for _ in range(4):
            child(lambda: spin_for(float(ARG)))
        for _ in range(4):
            os.wait()
    elif MODE.startswith("hog") and requests >= 3:
        hog(requests)
    send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    signal_all(burners, signal.SIGCONT)
