"""Ctrl-C stops ``arena play`` with one line every time, even with a page's WebSocket open and
busy: a real ``arena play`` process, a raw WebSocket client flooding it with messages (so that
the signal lands while the socket's task runs, as it did 3 times in 14 in issue 47), SIGINT to
its process group as a terminal sends it."""

import os
import signal
import socket
import struct
import subprocess
import threading
from pathlib import Path

import pytest

from ._warnings import without_sandbox_warnings

ROOT = Path(__file__).parents[2]
PY_RANDOM = str(ROOT / "examples" / "bots" / "py-random.toml")


def open_socket(port: int, token: str) -> socket.socket:
    """A WebSocket to the seat's page socket, past the upgrade (the gate's Host and Origin)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=60)
    host = f"127.0.0.1:{port}"
    conn.sendall((f"GET /{token}/ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return conn


def frame(text: str) -> bytes:
    """One masked text frame (a client's frames must be masked; a zero mask is a mask)."""
    data = text.encode()
    length = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
    return b"\x81" + length + b"\0\0\0\0" + data


def flood(conn: socket.socket, sent: threading.Semaphore, stop: threading.Event) -> None:
    """Keep the page's task busy: messages it parses and refuses (no such decision)."""
    message = frame('{"type": "act", "decision": -1, "choice": 0, "pad": [' + ",".join(["0"] * 2000) + "]}")
    try:
        while not stop.is_set():
            conn.sendall(message)
            sent.release()
    except OSError:
        pass  # the server closed it: it stopped


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_with_a_busy_page_socket_open_stops_with_one_line(tmp_path, attempt):
    command = ["arena", "play", "dead-mans-draw", PY_RANDOM, "--no-open", "--port", "0", "--sandbox", "none"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    stop = threading.Event()
    try:
        line = process.stdout.readline()  # "you: seat 0 of 2 against ...: http://127.0.0.1:PORT/TOKEN/"
        assert "http://127.0.0.1:" in line, (line, process.stderr.read() if process.poll() is not None else "")
        port, token = line.rsplit("http://127.0.0.1:", 1)[1].strip().rstrip("/").split("/")
        conn = open_socket(int(port), token)
        sent = threading.Semaphore(0)
        threading.Thread(target=flood, args=(conn, sent, stop), daemon=True).start()
        for _ in range(200):  # the page's task is reading and parsing them now
            assert sent.acquire(timeout=60), "the server stopped reading the page's socket"
        os.killpg(process.pid, signal.SIGINT)
        try:
            stdout, stderr = process.communicate(timeout=120)  # a safety net: it stops in a second
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            pytest.fail(f"arena play went on serving after Ctrl-C:\n{stderr}")
    finally:
        stop.set()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr and "ASGI" not in stderr, stderr
    lines = without_sandbox_warnings(stderr).splitlines()
    assert lines[-1] == ("interrupted: the server stopped; 0 finished games kept (replay files in the current "
                         "folder); a game in play is not kept"), stderr
    assert [line for line in lines if line.startswith("interrupted:")] == lines[-1:]
