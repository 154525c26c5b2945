"""Bot processes: start one in its own session, capture its stderr, kill its whole group.

This layer knows bytes and processes only; framing and messages live in ``_connection``.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from ._faults import BotFault, FaultKind
from ._manifest import BotSpec

#: Environment variables passed through to every bot; everything else comes from the manifest.
PASSED_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "NODE_PATH")


class StderrLog:
    """Keeps the last ``limit`` bytes a bot wrote to stderr, and counts the total."""

    def __init__(self, limit: int = 16 * 1024) -> None:
        self.limit = limit
        self.total = 0
        self._tail = bytearray()

    def write(self, data: bytes) -> None:
        self.total += len(data)
        self._tail += data
        if len(self._tail) > 2 * self.limit:
            del self._tail[: len(self._tail) - self.limit]

    def tail(self, lines: int = 20) -> str:
        text = bytes(self._tail[-self.limit:]).decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])


class BotProcess:
    """A running bot: its pipes, its stderr log, and a way to kill its process group."""

    def __init__(self, spec: BotSpec, process: trio.Process, stderr: StderrLog) -> None:
        self.spec = spec
        self.process = process
        self.stdin = process.stdin
        self.stdout = process.stdout
        self.stderr = stderr

    @property
    def pid(self) -> int:
        return self.process.pid

    def returncode(self) -> int | None:
        return self.process.poll()

    def kill(self) -> None:
        """SIGKILL the whole process group (the bot and every child it left in the group)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    async def terminate(self, grace: float = 0.5) -> None:
        """SIGTERM the group, wait up to ``grace`` seconds for the bot to exit, then SIGKILL."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            with trio.move_on_after(grace):
                await self.process.wait()
        self.kill()
        with trio.CancelScope(shield=True):
            await self.process.wait()
            await self._wait_group_gone()

    async def _wait_group_gone(self, limit: float = 2.0) -> None:
        # Children the bot left in its group are not ours to wait() for: they are reaped by
        # init after SIGKILL. Poll briefly so that "the slot is free" means the group is gone.
        delay = 0.001
        with trio.move_on_after(limit):
            while True:
                try:
                    os.killpg(self.process.pid, 0)
                except (ProcessLookupError, PermissionError):
                    return
                await trio.sleep(delay)
                delay = min(delay * 2, 0.05)

    async def _pump_stderr(self) -> None:
        stream = self.process.stderr
        try:
            while data := await stream.receive_some(65536):
                self.stderr.write(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


def _environment(spec: BotSpec) -> dict[str, str]:
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    env.update(spec.env)
    return env


@asynccontextmanager
async def open_bot_process(spec: BotSpec, stderr_limit: int = 16 * 1024) -> AsyncIterator[BotProcess]:
    """Start ``spec`` in a new session; on exit SIGTERM, a short grace, SIGKILL the group.

    Raises :class:`BotFault` (``CRASH``) if the command cannot be started at all.
    """
    try:
        process = await trio.lowlevel.open_process(
            spec.argv(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=spec.cwd,
            env=_environment(spec),
            start_new_session=True,
        )
    except OSError as error:
        raise BotFault(FaultKind.CRASH, f"could not start {spec.argv()[0]!r}: {error.strerror or error}") from None
    bot = BotProcess(spec, process, StderrLog(stderr_limit))
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bot._pump_stderr)
            try:
                yield bot
            finally:
                with trio.CancelScope(shield=True):
                    await bot.terminate()
                nursery.cancel_scope.cancel()
    finally:
        bot.kill()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with trio.CancelScope(shield=True):
                    await stream.aclose()
