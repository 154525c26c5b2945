"""A bot that tries to read what it must not: ``/usr/bin/python3 spy.py FILE...``.

Standard library only (so it can run as an unprivileged user with the system Python). It
reports to stderr what it could read of each FILE and whether any process's command line
shows the word SECRETSEED, then answers ``hello`` and exits on the next message.
"""

import os
import struct
import sys

for target in sys.argv[1:]:
    try:
        with open(target, "rb") as file:
            data = file.read()
        print("READ", target, len(data), data[:60], file=sys.stderr)
    except OSError as error:
        print("DENIED", target, type(error).__name__, file=sys.stderr)
    if os.path.isdir(target):
        print("LISTED", target, sorted(os.listdir(target)), file=sys.stderr)
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                if b"SECRETSEED" in file.read():
                    print("SAW-SEED in", pid, file=sys.stderr)
        except OSError:
            pass
sys.stderr.flush()


def text(value: str) -> bytes:
    raw = value.encode()
    return bytes([0xA0 | len(raw)]) + raw


def read_frame() -> bytes:
    header = sys.stdin.buffer.read(4)
    if len(header) < 4:
        sys.exit(0)
    return sys.stdin.buffer.read(struct.unpack(">I", header)[0])


read_frame()
hello = (b"\x85" + text("type") + text("hello") + text("protocol") + text("1.0") + text("name") + text("spy")
         + text("version") + text("1") + text("games") + b"\x90")
sys.stdout.buffer.write(struct.pack(">I", len(hello)) + hello)
sys.stdout.buffer.flush()
read_frame()
