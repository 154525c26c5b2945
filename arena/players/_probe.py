"""The sandbox's live self-test: a probe bot attacks each protection, and ``arena doctor``
reports what held.

A row of ``arena doctor`` says "yes" only when the attack it names failed here and now, in a
real bot process started exactly as a tournament starts one (same sandbox, same start path).
The probe is in four parts:

- :mod:`._probe_inside` and :mod:`._probe_files`: the program that runs in the sandbox, on the
  standard library alone (one text, :func:`program_text`): it tries each attack and prints one
  JSON object on its stderr;
- :mod:`._probe_targets`: what the arena sets up for it to attack (a listener on its
  127.0.0.1, a unix socket open to every user, a lock held on a file the bot can read, a folder
  in the host's ``/tmp``), what it tells it to try, and its limits;
- this module: starting it as a bot (:func:`run_probe`, :func:`probe_command`) and freezing it
  in its window, as the arena freezes a bot that is not on move;
- :mod:`._probe_judge`: the rows, judged from both sides: what the probe says it did, and what
  reached the targets (:func:`judge`, re-exported here with :func:`channels_left`).
"""

from __future__ import annotations

import ast
import json
import os
import sys
import time
from pathlib import Path

import trio

from ..sandbox import Sandbox, ViewRefused, installation, plan_view, program_path, shown_paths
from . import _probe_files, _probe_inside
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._probe_judge import CHANNELS_LEFT as CHANNELS_LEFT
from ._probe_judge import Check as Check
from ._probe_judge import channels_left as channels_left
from ._probe_judge import judge as judge
from ._probe_targets import PROBE_LIMITS, Targets, mounted_devices

#: how long the arena keeps the probe frozen once every process of it has stopped
FREEZE_S = 0.3
#: how long the arena waits for every process of the probe to stop, once it asked the freeze
SETTLE_S = 2.0


def probe_command() -> tuple[str, ...]:
    """How the probe starts, but for its task: the arena's Python, isolated (``-I``: no
    environment, no user site; ``-S``: no site at all), running :func:`program_text` read now
    (``-c``: its view stays the bot's, see :mod:`._probe_inside`)."""
    return (sys.executable, "-I", "-S", "-c", program_text())


def program_text() -> str:
    """The probe's program, one text of the standard library alone: :mod:`._probe_files`, then
    :mod:`._probe_inside` without its import of the former (whose names are then defined above)."""
    inside = Path(_probe_inside.__file__).read_text()
    lines = inside.splitlines(keepends=True)
    for node in ast.parse(inside).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "_probe_files":
            del lines[node.lineno - 1:node.end_lineno]
    return Path(_probe_files.__file__).read_text() + "\n\n" + "".join(lines)


async def run_probe(sandbox: Sandbox, limit_s: float = 90.0, manifest: BotSpec | None = None) -> dict:
    """Start the probe in ``sandbox`` and return what it found, with what reached the targets
    (``reached``) and the processes it left behind (``survivors``). Raises ``RuntimeError`` if
    it says nothing (it could not start, or was killed).

    ``manifest``: probe the view that bot gets: the probe runs in its folder, with its
    environment, and is shown what its command would be (its program, the files its command
    line names, its ``PYTHONPATH``), beside the arena's Python that runs the probe."""
    from ._process import VIEW_REFUSED, open_bot_process
    from ._program import bot_environment

    targets = Targets()
    try:
        cwd = manifest.cwd if manifest is not None and manifest.cwd is not None else targets.home
        env = bot_environment(manifest) if manifest is not None else {}
        view_argv = manifest.argv() if manifest is not None else ()
        probe = probe_command()
        # What the bot may see of places it must otherwise not: its folder, the runtime of its
        # program and the arena's Python with its packages (the probe's), not what its
        # environment or command line add beyond those (that is what the probe looks for).
        program = program_path(view_argv, cwd, env) if view_argv else None
        runtime = installation(program) if program is not None else []
        if manifest is not None and sandbox.bwrap is not None:
            # The bot's own plan first, as its start in a tournament makes it: a view it cannot
            # have refuses it here with the same line (the probe's plan is another command's).
            try:
                await trio.to_thread.run_sync(plan_view, view_argv, cwd, env)
            except ViewRefused as error:
                raise BotFault(FaultKind.CRASH, f"{VIEW_REFUSED}: {error}") from None
        shown = [str(path) for path in shown_paths([*probe, "{}"], cwd, {}, runtime)]
        spec = BotSpec("sandbox-probe", (*probe, json.dumps(targets.task(shown))), cwd=cwd,
                       env=manifest.env if manifest is not None else {}, limits=PROBE_LIMITS)
        arena_side: dict = {}
        async with open_bot_process(spec, sandbox, view_argv=view_argv) as bot:
            # A bound, not a timing: the probe takes a few seconds on a quiet machine, and over
            # 30 s at a load of 30 (a suite beside five benchmarks on 2 cores).
            with trio.move_on_after(limit_s) as bound:
                await _freeze_in_window(bot, arena_side)
                await bot.process.wait()
        lines = bot.stderr.tail().splitlines()
        try:
            found = json.loads(lines[-1])
        except (IndexError, ValueError):
            why = (f"did not finish in {limit_s:g} s (a machine this loaded?)" if bound.cancelled_caught
                   else "said nothing")
            end = f"; its stderr ends: {lines[-1]}" if lines else ""
            raise RuntimeError(f"the sandbox probe {why}{end}")
        found["reached"] = targets.reached()
        found["freeze"] = arena_side.get("freeze", "ran out of time before the probe's window")
        found["frozen"] = arena_side.get("frozen")
        devices = mounted_devices()
        for seen in found["filesystems"]:
            seen["own"] = seen["device"] not in devices
        found["survivors"] = targets.survivors()
        for pid in found["survivors"]:  # the arena's own cleanup failed: do not leave it running
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        return found
    finally:
        targets.close()


async def _freeze_in_window(bot, said: dict) -> None:
    """Freeze the probe for :data:`FREEZE_S` once it says its window began, as the arena
    freezes a bot that is not on move (where there is no freezer, nothing happens), then tell
    it on its stdin that its window is over. What the arena did goes in ``said["freeze"]``;
    the interval it held every process of the probe stopped, on ``time.monotonic``'s clock
    (the probe's), in ``said["frozen"]``."""
    said["freeze"] = "never saw its window begin"
    while "window" not in bot.stderr.tail().splitlines():
        if bot.returncode() is not None:
            return
        await trio.sleep(0.005)
    seen = time.monotonic()
    try:
        if bot.cgroup is None or not bot.cgroup.has("freezer"):
            said["freeze"] = "has no freezer here"
            return
        bot.cgroup.freeze()
        if not bot.cgroup.frozen:
            said["freeze"] = "could not write the freeze"
            return
        try:
            with trio.move_on_after(SETTLE_S):
                while not bot.cgroup.settled():
                    await trio.sleep(0.001)
            since = time.monotonic()
            if not bot.cgroup.settled():
                said["freeze"] = f"asked the freeze, but a process of it still ran after {SETTLE_S:g} s"
                return
            await trio.sleep(FREEZE_S)
            said["frozen"] = [since, time.monotonic()]
        finally:
            bot.cgroup.thaw()
        said["freeze"] = (f"froze it {since - seen:.3f} s after it said its "
                          f"window began, for {FREEZE_S * 1000:.0f} ms once all of it had stopped")
    finally:
        with trio.move_on_after(1):
            try:
                await bot.stdin.send_all(b"thawed\n")
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
