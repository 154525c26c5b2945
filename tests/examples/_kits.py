"""The starter kits under ``examples/bots/``: how to build each one, and how to play with it.

Each kit is a manifest plus a build step. :func:`prepare` runs the build (``npm ci``, ``make``,
``cargo build``, ``go build``, ``build.sh``: ``javac``) and returns the
:class:`~arena.players._manifest.BotSpec`, skips the test only when the kit's toolchain is not
installed, and fails with the command to run when the build itself fails.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from arena.match._match import MatchSettings, play_match
from arena.match._result import MatchResult
from arena.players._manifest import BotSpec, load_manifest
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from engines import get_game

from .._xdist import once

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"
PY_RANDOM = BotSpec(name="py-random", command=("python", "-m", "bots.random"))
#: Generous: these tests check correctness, not speed; a loaded CI machine must not time out.
SETTINGS = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))


@dataclass(frozen=True)
class Kit:
    name: str
    #: programs that must be on PATH, and the packages that bring them
    tools: tuple[str, ...]
    install: str
    #: the build, run in the kit's folder
    build: tuple[str, ...]
    #: glob patterns of libraries the build needs installed (from Debian: no other registry here)
    libraries: tuple[str, ...] = ()
    #: extra environment of the build
    env: tuple[tuple[str, str], ...] = ()

    @property
    def manifest(self) -> Path:
        return EXAMPLES / f"{self.name}.toml"

    @property
    def folder(self) -> Path:
        return EXAMPLES / self.name


#: Debian's packaged crates (librust-*-dev), used offline where they are installed.
DEBIAN_CRATES = Path("/usr/share/cargo/registry")
CARGO_BUILD = ("cargo", "build", "--release", "--quiet") + (
    ("--offline", "--config", 'source.crates-io.replace-with="debian"',
     "--config", f'source.debian.directory="{DEBIAN_CRATES}"') if DEBIAN_CRATES.is_dir() else ())

#: Debian's packaged Go sources (golang-*-dev), built in GOPATH mode: no module proxy here.
DEBIAN_GOPATH = Path("/usr/share/gocode")

KITS = {
    "js-random": Kit("js-random", ("node",), "apt-get install nodejs npm", ("npm", "ci", "--no-audit", "--no-fund")),
    "c-random": Kit("c-random", ("cc", "make"), "apt-get install gcc make", ("make",)),
    "rust-random": Kit("rust-random", ("cargo",), "apt-get install cargo librust-rmp-serde-dev",
                       CARGO_BUILD, (str(DEBIAN_CRATES / "rmp-serde-1.*"),)),
    "go-random": Kit("go-random", ("go",), "apt-get install golang-go golang-github-vmihailenco-msgpack.v5-dev",
                     ("go", "build", "-o", "go-random", "."),
                     (str(DEBIAN_GOPATH / "src/github.com/vmihailenco/msgpack/v5/msgpack.go"),),
                     (("GO111MODULE", "off"), ("GOPATH", str(DEBIAN_GOPATH)))),
    "java-random": Kit("java-random", ("javac", "java"), "apt-get install default-jdk-headless libmsgpack-java",
                       ("./build.sh",), ("/usr/share/java/msgpack-core.jar",)),
}


def _needs_build(kit: Kit) -> bool:
    # node_modules is the one build output a developer may already have: `npm ci` wipes and
    # reinstalls it, so skip it when it is there. The compiled kits' builds are incremental.
    return not (kit.name == "js-random" and (kit.folder / "node_modules" / "@msgpack" / "msgpack").is_dir())


@cache
def _build(name: str) -> str | None:
    """Build the kit once per test run, by one of the suite's worker processes while the
    other waits (it may be running this kit's bot, whose program, classes or node_modules a
    build rewrites); the failure text, or None on success."""
    return once(f"kit-{name}", lambda: _run_build(KITS[name]))


def _run_build(kit: Kit) -> str | None:
    name = kit.name
    if not _needs_build(kit):
        return None
    try:
        result = subprocess.run(kit.build, cwd=kit.folder, capture_output=True, text=True, timeout=900,
                                env={**os.environ, **dict(kit.env)})
    except FileNotFoundError:
        return f"building {name} needs `{kit.build[0]}` (install: {kit.install})"
    if result.returncode != 0:
        env = "".join(f"{key}={value} " for key, value in kit.env)
        return (f"building {name} failed; run `cd {kit.folder} && {env}{' '.join(kit.build)}`:\n"
                f"{result.stdout[-2000:]}{result.stderr[-4000:]}")
    return None


def prepare(name: str) -> BotSpec:
    """The kit's bot, built; skips when its toolchain is missing, fails when the build does."""
    kit = KITS[name]
    if not kit.manifest.is_file():
        pytest.skip(f"{name} is not written yet (no {kit.manifest.name})")
    missing = [tool for tool in kit.tools if shutil.which(tool) is None]
    missing += [pattern for pattern in kit.libraries if not glob.glob(pattern)]
    if missing:
        message = f"{name} needs {', '.join(missing)} on PATH (install: {kit.install})"
        if os.environ.get("CI"):  # CI installs every toolchain: a missing one is a failure there
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    failure = _build(name)
    if failure is not None:
        pytest.fail(failure, pytrace=False)
    return load_manifest(kit.manifest)


async def play(game_id: str, specs: list[BotSpec], seeds: list[int],
               seatings: list[tuple[int, ...]] | None = None) -> list[MatchResult]:
    """Start one process per spec, then play one game per seed with the same processes.

    ``seatings[i]``, if given, seats game ``i``'s players: the indexes in ``specs`` of seat 0,
    seat 1, ... (by default ``specs``' order), so one process of each bot plays every seating
    (a tournament reuses its processes so too). Each seat's ``bot_seed`` is fixed by the seed
    and the seat (a real match draws it at random), so the same seeds give the same games and
    two kits can be compared.
    """
    game = get_game(game_id)
    seatings = seatings or [tuple(range(len(specs)))] * len(seeds)
    async with AsyncExitStack() as stack:
        started = [await stack.enter_async_context(open_player(spec, SETTINGS.time_control.startup_ms / 1000))
                   for spec in specs]
        return [await play_match(game, [started[index] for index in seating], seed, settings=SETTINGS,
                                 bot_seeds=[(seed * 1_000_003 + seat) % 2**64 for seat in range(len(seating))])
                for seed, seating in zip(seeds, seatings, strict=True)]


def describe(results: list[MatchResult]) -> str:
    return "; ".join(f"{r.game} seed {r.seed}: {r.reason.value} {[f.as_dict() for f in r.faults]}"
                     for r in results)
