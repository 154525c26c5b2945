"""A real ladder server for tests: ``arena ladder serve`` in its own process on a free port.

The ladder's folder is world-readable (bots run under their own uids as root), made with
``tempfile.mkdtemp``; the test bots live in ``tests/arena/ladder/bots``.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from arena.cli._ladder import pack_bot

BOTS = Path(__file__).parent / "bots"
PR_SET_PDEATHSIG = 1
ROOT = Path(__file__).parents[3]

LADDER = """\
game = "dead-mans-draw"
players = 2
port = 0
concurrency = 2
workers = 1
max_upload_mb = 1
{extra}
[options]
characters = false

[time]
move_ms = 500
reserve_ms = 2000
"""


def ladder_folder(extra: str = "") -> Path:
    """A world-readable folder holding ``ladder.toml``."""
    folder = Path(tempfile.mkdtemp(prefix="ladder-"))
    folder.chmod(0o755)
    (folder / "ladder.toml").write_text(LADDER.format(extra=extra), encoding="utf-8")
    return folder


def house_bots(**manifests: str) -> str:
    """``[[bots]]`` tables for a ladder file: author name -> manifest under examples/bots."""
    return "".join(f'\n[[bots]]\nauthor = "{author}"\nmanifest = "{ROOT}/examples/bots/{manifest}"\n'
                   for author, manifest in manifests.items())


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def archive(name: str) -> bytes:
    return pack_bot(BOTS / name / "bot.toml")


def arena(*args: str) -> str:
    """Run ``arena ARGS`` in this process (the quick commands: tokens); its stdout."""
    from typer.testing import CliRunner

    from arena.cli._app import app

    result = CliRunner().invoke(app, list(args), prog_name="arena")
    assert result.exit_code == 0, result.output
    return result.stdout


def _stop_with_parent() -> None:
    """In the server's child, before exec: SIGINT (the server's own clean stop) when the test
    process dies, so that a killed test run (Ctrl-C twice, a timeout's SIGKILL) leaves no
    server behind, still playing games on a machine's cores."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)
    if os.getppid() == 1:  # the test process died before the line above
        os.kill(os.getpid(), signal.SIGINT)


class Server:
    """``arena ladder serve FOLDER/ladder.toml`` until :meth:`stop` (or :meth:`kill`)."""

    def __init__(self, folder: Path, sandbox: str = "auto") -> None:
        self.folder = folder
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena.cli", "ladder", "serve", str(folder / "ladder.toml"), "--sandbox", sandbox],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True, preexec_fn=_stop_with_parent)
        self.lines: list[str] = []
        ready = threading.Event()

        def read() -> None:
            for line in self.process.stderr:
                self.lines.append(line)
                if line.startswith("ladder: serving"):
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(300)  # a safety net: set at once when the server is up, or ends
        found = [m for line in self.lines if (m := re.search(r"on (http://\S+)", line))]
        assert found, "".join(self.lines)
        self.url = found[0].group(1)

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=120) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(self, path: str) -> dict:
        status, body = self.get(path)
        assert status == 200, (status, body)
        return json.loads(body)

    def post(self, path: str, fields: dict[str, str | bytes], token: str | None = None) -> tuple[int, bytes]:
        """A multipart POST; a ``bytes`` field is sent as a file."""
        boundary = "----ladder-test-boundary"
        body = b""
        for name, value in fields.items():
            if isinstance(value, bytes):
                body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="bot.tar.gz"\r\n'
                         f"Content-Type: application/gzip\r\n\r\n").encode() + value + b"\r\n"
            else:
                body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        body += f"--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def submit(self, token: str, data: bytes) -> dict:
        status, body = self.post("/api/submissions", {"archive": data}, token)
        assert status == 202, (status, body)
        return json.loads(body)

    def wait_for(self, check, what: str, timeout: float = 300.0):
        """Poll ``check()`` until it returns something true; fail naming ``what``. The timeout
        is a safety net for a machine at load 20, not a measure: a check that can come true
        returns as soon as it does."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            assert self.process.poll() is None, "server died:\n" + "".join(self.lines)
            time.sleep(0.3)
        raise AssertionError(f"timed out waiting for {what}; server said:\n" + "".join(self.lines[-30:]))

    def kill(self) -> None:
        """``kill -9`` of the server (its worker processes see their pipes close and stop)."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(30)
