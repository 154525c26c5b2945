"""A bot that looks around its sandbox and says what it found, as one JSON line on stderr,
then exits. Used by tests/arena/test_sandbox_view.py; each check names what it tried.

argv: the port of a listener on the host's 127.0.0.1, a unix socket path, then paths to try.
"""

import ctypes
import json
import os
import socket
import sys

port, unix_path, *paths = sys.argv[1:]
found = {"env": sorted(os.environ), "path": os.environ.get("PATH", "")}

# Dissolve the stdout socket (connect to AF_UNSPEC) and connect it to the host's listener.
libc = ctypes.CDLL(None, use_errno=True)
dissolved = libc.connect(1, bytes(16), 16)  # a zeroed sockaddr: sa_family AF_UNSPEC
found["stdout_dissolve"] = "done" if dissolved == 0 else f"refused: {os.strerror(ctypes.get_errno())}"
try:
    reply = socket.socket(fileno=os.dup(1))
    reply.settimeout(2)
    reply.connect(("127.0.0.1", int(port)))
    reply.sendall(b"escaped through stdout")
    found["stdout_reconnect"] = "connected"
except OSError as error:
    found["stdout_reconnect"] = f"refused: {error.strerror or error}"

# A new socket of its own.
try:
    with socket.create_connection(("127.0.0.1", int(port)), timeout=2) as fresh:
        fresh.sendall(b"escaped through a new socket")
        found["new_socket"] = "connected"
except OSError as error:
    found["new_socket"] = f"refused: {error.strerror or error}"

# A unix socket of the host's services.
try:
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(2)
        client.connect(unix_path)
        client.sendall(b"escaped through a unix socket")
        found["unix_socket"] = "connected"
except OSError as error:
    found["unix_socket"] = f"refused: {error.strerror or error}"

found["paths"] = {path: os.path.exists(path) for path in paths}
# What a folder it finds holds, down to 4 levels (the path to what it is shown, or more).
found["inside"] = {}
for path in paths:
    if os.path.isdir(path):
        for folder, names, files in os.walk(path):
            found["inside"][folder] = sorted(names + files)
            if folder.count("/") - path.count("/") >= 3:
                names.clear()
for folder in ("/", "/tmp"):
    try:
        found[f"ls {folder}"] = sorted(os.listdir(folder))
    except OSError as error:
        found[f"ls {folder}"] = f"refused: {error.strerror}"
try:
    with open("/written-to-root", "w") as file:
        file.write("x")
    found["write /"] = "written"
except OSError as error:
    found["write /"] = f"refused: {error.strerror}"
print(json.dumps(found), file=sys.stderr, flush=True)
