"""Ctrl-C stops ``arena ladder serve`` with one line every time, even while its pages are being
served: a real server, a client asking for the leaderboard as fast as it answers (so that the
signal lands while a request's task runs), SIGINT to its process group as a terminal sends it."""

import http.client
import os
import signal
import subprocess
import threading
import time

import pytest

from .._warnings import without_sandbox_warnings
from ._server import Server, house_bots, ladder_folder, remove

pytestmark = pytest.mark.slow


def ask(url: str, answered: threading.Semaphore, stop: threading.Event) -> None:
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    try:
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        while not stop.is_set():
            conn.request("GET", "/api/leaderboard")
            conn.getresponse().read()
            answered.release()
    except (OSError, http.client.HTTPException):
        pass  # the server stopped


@pytest.mark.parametrize("attempt", range(2))
def test_ctrl_c_while_pages_are_served_stops_with_one_line(attempt):
    folder = ladder_folder(house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))
    server = Server(folder, "none")
    stop = threading.Event()
    try:
        answered = threading.Semaphore(0)
        for _ in range(2):
            threading.Thread(target=ask, args=(server.url, answered, stop), daemon=True).start()
        for _ in range(50):
            assert answered.acquire(timeout=60), "the server stopped answering"
        os.killpg(server.process.pid, signal.SIGINT)
        try:
            server.process.wait(120)  # a safety net: it stops in a second or two
        except subprocess.TimeoutExpired:
            pytest.fail("the ladder went on serving after Ctrl-C:\n" + "".join(server.lines))
        deadline = time.monotonic() + 60  # its stderr's reader takes the last lines
        while not any(line.startswith("interrupted:") for line in server.lines) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        server.stop()
        remove(folder)
    stderr = "".join(server.lines)
    assert server.process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr and "ASGI" not in stderr, stderr
    lines = without_sandbox_warnings(stderr).splitlines()
    assert lines[-1] == f"interrupted: the ladder stopped; its games and submissions are kept in {folder / 'ladder.db'}"
    assert [line for line in lines if line.startswith("interrupted:")] == lines[-1:]
