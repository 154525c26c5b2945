"""The engines' JavaScript twins (``engines/<game>/rules.js``) against the Python engines.

A replay viewer re-plays seed + actions in the browser with a game's twin instead of
carrying every observation (issue 17: a 10,000-game report in 20 MB), so a twin must give
exactly what the engine gives. Here node replays seeded random games through the twin and
compares every state: every seat's observation, the omniscient view, who acts, their
decisions and legal actions, and the events (``rules_js_runner.js`` says how). The twins
use ``arena/report/assets/pyrandom.js`` for Python's ``random.Random``, checked first.

``ARENA_RULES_JS_GAMES=N`` plays N games for each player count and option set (default 2),
e.g. 100 when a twin changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import engines
from engines import State

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("rules_js_runner.js")
PYRANDOM = ROOT / "arena" / "report" / "assets" / "pyrandom.js"
#: seeded random games per option set and table size (every state of each compared); more with
#: ARENA_RULES_JS_GAMES=20 after a change to a twin
GAMES_EACH = int(os.environ.get("ARENA_RULES_JS_GAMES", "2"))

#: option sets played besides the defaults (choices are added from the game's options)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "karibik": [{"max_rounds": 3}],
    "opito-bay": [{"deals": 1}, {"target": 5_000}],
}


def twin(game_id: str) -> Path:
    return Path(engines.game_package(game_id).__file__).with_name("rules.js")


TWINS = [game_id for game_id in engines.game_ids() if twin(game_id).exists()]


def node() -> str:
    path = shutil.which("node")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the rules twins' tests (it is on CI's machine)")
        pytest.skip("node not found: install Node.js (apt-get install nodejs) to check the rules twins")
    return path


def run_node(request: dict[str, Any]) -> dict[str, Any]:
    completed = subprocess.run([node(), str(RUNNER)], input=json.dumps(request), capture_output=True,
                               text=True, timeout=600, check=False)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout)


def canonical(value: Any) -> str:
    return json.dumps(js_numbers(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def js_numbers(value: Any) -> Any:
    """``value`` with every whole float an int: JavaScript has one number type, so a twin
    writes Python's ``13.0`` (Karibik's board coordinates) as ``13``, the same JSON value."""
    if type(value) is float and value.is_integer():
        return int(value)
    if isinstance(value, (list, tuple)):
        return [js_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: js_numbers(item) for key, item in value.items()}
    return value


def record(game_id: str, state: State, events_from: int) -> dict[str, Any]:
    """What the runner records of a state (see ``rules_js_runner.js``)."""
    acting = list(state.acting)
    return {
        "obs": [state.observation(seat) for seat in range(state.num_players)],
        "hid": engines.game_package(game_id).omniscient_view(state),
        "w": acting,
        "d": [state.decision(seat) for seat in acting],
        "legal": [state.legal_actions(seat) for seat in acting],
        "e": [[event.data, None if event.audience is None else sorted(event.audience)]
              for event in state.log[events_from:]],
    }


def random_game(game_id: str, players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A seeded random game as the runner's request: its steps and every state's digest."""
    game = engines.get_game(game_id)
    state = game.new_state(players, seed, options)
    rng = random.Random(seed ^ 0x7717)
    steps: list[list[list[Any]]] = []
    digests = []
    seen = 0
    while True:
        digests.append(hashlib.sha1(canonical(record(game_id, state, seen)).encode()).hexdigest())
        seen = len(state.log)
        if state.is_terminal():
            break
        step = {seat: state.random_action(seat, rng) for seat in state.acting}
        steps.append([[seat, action] for seat, action in step.items()])
        state.apply(step)
    return {"game": game_id, "players": players, "seed": str(seed), "options": game.resolve_options(options),
            "steps": steps, "digests": digests, "terminal": True}


def option_sets(game_id: str) -> list[dict[str, Any]]:
    sets: list[dict[str, Any]] = [{}]
    for option in engines.get_game(game_id).options:
        for choice in option.choices or ():
            if choice != option.default:
                sets.append({option.name: choice})
    return sets + VARIANTS.get(game_id, [])


def differences(python: Any, js: Any, where: str = "") -> list[str]:
    """Where two JSON values differ, as readable lines (the first few)."""
    if isinstance(python, dict) and isinstance(js, dict):
        out = []
        for key in sorted(python.keys() | js.keys(), key=str):
            if key not in js:
                out.append(f"{where}.{key}: missing in the twin")
            elif key not in python:
                out.append(f"{where}.{key}: only in the twin ({canonical(js[key])[:200]})")
            else:
                out += differences(python[key], js[key], f"{where}.{key}")
        return out
    if isinstance(python, list) and isinstance(js, list) and len(python) == len(js):
        return [line for index, (a, b) in enumerate(zip(python, js)) for line in differences(a, b, f"{where}[{index}]")]
    if canonical(python) != canonical(js):
        return [f"{where}: python {canonical(python)[:300]} / twin {canonical(js)[:300]}"]
    return []


def explain(game: dict[str, Any], failure: dict[str, Any]) -> str:
    """The first differing state of ``game`` in words, from Python's record of it."""
    at = failure["state"]
    head = (f"{game['game']} players={game['players']} seed={game['seed']} options={game['options']}: "
            f"state {at} (after {at} steps; the step into it: {game['steps'][at - 1] if at else 'setup'})")
    if "error" in failure:
        return f"{head}: the twin failed: {failure['error']}"
    state = engines.get_game(game["game"]).new_state(game["players"], int(game["seed"]), game["options"])
    seen = 0
    for step in game["steps"][:at]:
        seen = len(state.log)
        state.apply({seat: action for seat, action in step})
    mine = json.loads(canonical(record(game["game"], state, seen)))
    return head + "\n  " + "\n  ".join(differences(mine, failure["record"])[:12])


def test_pyrandom_is_pythons_random() -> None:
    node()
    seeds = [0, 1, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**53 + 1, 2**63 + 12345, 2**64 - 1, -7, 2**100 + 3,
             *(random.Random(5).getrandbits(64) for _ in range(20))]
    calls: list[list[Any]] = [["random"], ["random"]]
    calls += [["getrandbits", k] for k in (0, 1, 5, 31, 32)]
    calls += [["randbelow", n] for n in (1, 2, 3, 7, 52, 1000, 2**31, 2**32 - 1)]
    calls += [["randrange", 6], ["choice", list("abcdefg")]]
    calls += [["shuffle", list(range(52))], ["shuffle", list(range(2))], ["shuffle", []]]
    calls += [["sample", list(range(10)), 4], ["sample", list(range(60)), 10], ["sample", list(range(200)), 3],
              ["sample", list("NESW"), 4], ["sample", list(range(5)), 0]]
    expected = []
    for seed in seeds:
        rng = random.Random(seed)
        results = []
        for method, *args in calls:
            if method == "randbelow":
                results.append(rng._randbelow(*args))
            elif method == "shuffle":
                values = list(args[0])
                rng.shuffle(values)
                results.append(values)
            else:
                results.append(getattr(rng, method)(*args))
        expected.append(results)
    answer = run_node({"scripts": [str(PYRANDOM)],
                       "random": [{"seed": str(seed), "calls": calls} for seed in seeds]})
    for seed, mine, theirs in zip(seeds, expected, answer["random"]):
        for call, a, b in zip(calls, mine, theirs):
            assert a == b, f"seed {seed}, {call[0]}{tuple(call[1:])}: Python {a!r}, pyrandom.js {b!r}"


@pytest.mark.parametrize("game_id, players", [
    (game_id, players) for game_id in TWINS
    for players in range(engines.get_game(game_id).min_players, engines.get_game(game_id).max_players + 1)])
def test_twin_replays_random_games_exactly(game_id: str, players: int) -> None:
    """Every state of seeded random games, for every option set, is the engine's."""
    node()
    seeds = random.Random(f"{game_id}/{players}")
    games = [random_game(game_id, players, seeds.getrandbits(64), options)
             for options in option_sets(game_id) for _ in range(GAMES_EACH)]
    answer = run_node({"scripts": [str(PYRANDOM), str(twin(game_id))], "games": games})
    failures = [explain(game, failure) for game, failure in zip(games, answer["games"]) if failure is not None]
    assert not failures, f"{len(failures)} of {len(games)} games differ; the first:\n" + "\n".join(failures[:3])


def test_every_twin_is_found() -> None:
    """A twin's file name is what the report looks for; a misnamed one would be skipped here."""
    for game_id in engines.game_ids():
        folder = twin(game_id).parent
        strays = [path.name for path in folder.glob("*.js") if path.name not in ("rules.js", "viewer.js", "play.js")]
        assert not strays, f"{game_id}: unexpected scripts {strays} beside rules.js, viewer.js and play.js"
