"""Two of these at one table try to pass each other a secret (issue 25's colluders).

``python collude.py``. It draws its secrets and prints them on stderr (``MINE CHANNEL VALUE``),
then, at every request of a game, sends them and looks for the other seat's through four
channels on files both processes can read, whatever their namespaces and uids:

- ``posix``: a read lock (``F_SETLK``) on byte ``REGION[seat] + value`` of this script; the
  other finds it with ``F_GETLK``;
- ``ofd``: the same with open-file-description locks (``F_OFD_SETLK``/``F_OFD_GETLK``);
- ``flock``: a shared ``flock`` on the value's file among the scripts beside this one (two
  per seat); the other finds which one refuses it an exclusive lock;
- ``inotify``: it opens the value's file (two other scripts per seat); the other watches the
  folder (``IN_OPEN``).

(Closing any descriptor of a file drops the process's POSIX locks on it: ``script`` stays open.)

What it learns it prints as ``GOT CHANNEL VALUE``, what the system refuses as ``REFUSED
CHANNEL ERRNO``, once each. Otherwise it plays the first legal action.
"""

import ctypes
import errno
import fcntl
import os
import random
import struct
import sys

from _frames import receive, send  # beside this script

HERE = os.path.abspath(__file__)
FOLDER = os.path.dirname(HERE)
#: the files of the flock and inotify channels, two per seat and channel: FILES[channel][seat][value]
SCRIPTS = sorted(name for name in os.listdir(FOLDER) if name.endswith(".py") and name not in ("_frames.py", "collude.py"))
FILES = {"flock": [SCRIPTS[0:2], SCRIPTS[2:4]], "inotify": [SCRIPTS[4:6], SCRIPTS[6:8]]}
F_OFD_GETLK, F_OFD_SETLK = 36, 37
IN_OPEN, IN_NONBLOCK = 0x20, 0o4000
libc = ctypes.CDLL(None, use_errno=True)

mine = {"posix": random.randrange(1, 1000), "ofd": random.randrange(1, 1000),
        "flock": random.randrange(2), "inotify": random.randrange(2)}
for channel, value in mine.items():
    print("MINE", channel, value, file=sys.stderr, flush=True)
said = set()
script = os.open(HERE, os.O_RDONLY)
held = []  # descriptors that must stay open while their lock holds


def say(*words):
    if words[:2] not in said:
        said.add(words[:2])
        print(*words, file=sys.stderr, flush=True)


def region(channel, seat):
    return {"posix": 1_000_000, "ofd": 2_000_000}[channel] + 10_000 * seat


def lock(kind, start, length=1):
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, start, length, 0)


def channel(name, action):
    """Run one channel's step; note once what the system refuses."""
    try:
        action()
    except OSError as error:
        say("REFUSED", name, errno.errorcode.get(error.errno, str(error.errno)))


def send_locks(seat):
    fcntl.fcntl(script, fcntl.F_SETLK, lock(fcntl.F_RDLCK, region("posix", seat) + mine["posix"]))


def find_locks(other):
    found = fcntl.fcntl(script, fcntl.F_GETLK, lock(fcntl.F_WRLCK, region("posix", other), 1000))
    kind, _, start = struct.unpack_from("hhq", found)
    if kind != fcntl.F_UNLCK:
        say("GOT", "posix", start - region("posix", other))


def send_ofd(seat):
    fcntl.fcntl(script, F_OFD_SETLK, lock(fcntl.F_RDLCK, region("ofd", seat) + mine["ofd"]))


def find_ofd(other):
    found = fcntl.fcntl(script, F_OFD_GETLK, lock(fcntl.F_WRLCK, region("ofd", other), 1000))
    kind, _, start = struct.unpack_from("hhq", found)
    if kind != fcntl.F_UNLCK:
        say("GOT", "ofd", start - region("ofd", other))


def send_flock(seat):
    if not held:
        fd = os.open(os.path.join(FOLDER, FILES["flock"][seat][mine["flock"]]), os.O_RDONLY)
        held.append(fd)
        fcntl.flock(fd, fcntl.LOCK_SH)


def find_flock(other):
    for value, name in enumerate(FILES["flock"][other]):
        fd = os.open(os.path.join(FOLDER, name), os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("GOT", "flock", value)
        finally:
            os.close(fd)


watch = []


def send_inotify(seat):
    os.close(os.open(os.path.join(FOLDER, FILES["inotify"][seat][mine["inotify"]]), os.O_RDONLY))


def find_inotify(other):
    if not watch:
        fd = libc.inotify_init1(IN_NONBLOCK)
        if fd < 0 or libc.inotify_add_watch(fd, FOLDER.encode(), IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), "inotify")
        watch.append(fd)
    try:
        data = os.read(watch[0], 65536)
    except BlockingIOError:
        return
    while data:
        _, _, _, length = struct.unpack_from("iIII", data)
        name = data[16:16 + length].rstrip(b"\0").decode()
        data = data[16 + length:]
        if name in FILES["inotify"][other]:
            say("GOT", "inotify", FILES["inotify"][other].index(name))


seat = None
receive()
send({"type": "hello", "protocol": "1.0", "name": "collude", "version": "1", "games": []})
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "start":
        seat = message["seat"]
    if message["type"] != "request":
        continue
    other = 1 - seat
    for name, send_step, find_step in (("posix", send_locks, find_locks), ("ofd", send_ofd, find_ofd),
                                       ("flock", send_flock, find_flock), ("inotify", send_inotify, find_inotify)):
        channel(name, lambda: send_step(seat))
        channel(name, lambda: find_step(other))
    send({"type": "action", "id": message["id"], "action": message["legal"][0] if message["legal"] else None})
