"""The JavaScript twin (``engines/karibik/rules.js``) in positions random games rarely reach,
and on actions the engine rejects.

``tests/engines/test_rules_js.py`` replays seeded random games from the start. Here a
position built with :meth:`KaribikState.from_setup` is carried into the twin field by field
(``FIELDS``), then played on in both, and every state is compared by the same runner: the
game ending because no chest is left anywhere, the transfer cap, a 4-player tie. A second
test replays random games and sends the twin every type-confused action the engine rejects.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
from typing import Any

from engines import IllegalAction, same_value
from engines.karibik import GAME, KaribikState
from engines.karibik._rules import MAX_TRANSFERS
from tests.engines._mutations import mutants
from tests.engines.test_rules_js import PYRANDOM, canonical, node, record, run_node, twin

from ._positions import STARTS, arriba_to_seat0, position

#: Python attribute -> the twin's field, for every attribute a position may set.
FIELDS = {
    "round": "round", "phase": "phase", "scores": "scores", "acting": "acting", "ship": "ship",
    "tied": "tied", "controller": "controller", "reserve": "reserve", "bids": "bids",
    "tiebreaker": "tiebreaker", "tb_revealed": "tbRevealed", "chest_status": "chestStatus",
    "ship_area": "shipArea", "ship_chest": "shipChest", "steps_left": "stepsLeft",
    "transfers_left": "transfersLeft",
}
#: Attributes the twin derives from the player count and options, or does not compare.
DERIVED = {"num_players", "rng", "options", "history", "log", "board", "target", "max_rounds", "hideout_owner"}

#: Registers "karibik-position": the twin's new state with a Python position's fields.
TRANSPLANT = """"use strict";
ArenaRules["karibik-position"] = {
  newState(players, seed, options) {
    return Object.assign(ArenaRules["karibik"].newState(players, seed, options.options), options.fields);
  },
};
"""


def played_on(state: KaribikState, seed: int, prefix: list[Any] = ()) -> dict[str, Any]:
    """The runner's request for ``state`` played on: the single-seat ``prefix`` actions, then
    random actions to the end; events are compared from the position on."""
    unknown = set(vars(state)) - set(FIELDS) - DERIVED
    assert not unknown, f"KaribikState has attributes the twin test does not carry: {sorted(unknown)}"
    fields = json.loads(json.dumps({FIELDS[name]: getattr(state, name) for name in FIELDS}))
    rng = random.Random(seed)
    prefix = list(prefix)
    steps, digests, seen = [], [], len(state.log)
    while True:
        digests.append(canonical(record("karibik", state, seen)))
        seen = len(state.log)
        if state.is_terminal():
            break
        if prefix:
            step = {state.acting[0]: prefix.pop(0)}
        else:
            step = {seat: state.random_action(seat, rng) for seat in state.acting}
        steps.append([[seat, action] for seat, action in step.items()])
        state.apply(step)
    return {"game": "karibik-position", "players": state.num_players, "seed": str(seed),
            "options": {"options": state.options, "fields": fields}, "steps": steps, "terminal": True,
            "digests": [hashlib.sha1(text.encode()).hexdigest() for text in digests], "final": state}


def test_positions_play_on_in_the_twin_as_in_the_engine(tmp_path) -> None:
    node()
    games = []
    # Nothing left anywhere: the game ends after the round ([R] engine-only end).
    for players in (2, 3, 4):
        games.append(played_on(position(players), seed=players))
    # The last chest rides a ship in a red hideout: delivered, or carried on until the round cap.
    for seed in range(6):
        games.append(played_on(position(3, ships=["Utila"] + STARTS[1:], cargo={0: "Havana"},
                                        options={"max_rounds": 4}), seed=seed))
    # The transfer cap: twelve exchanges, then no thirteenth.
    capped = arriba_to_seat0(1, ships=["Cayman Trench", "Trinidad"] + STARTS[:4],
                             cargo={0: "Havana", 1: "Veracruz"}, options={"max_rounds": 2})
    games.append(played_on(capped, seed=9, prefix=[["exchange", 1]] * MAX_TRANSFERS))
    # Four players tied on every ship, half the tie-breakers used, near the target.
    for seed in range(3):
        games.append(played_on(position(4, bids=[[5, 4, 3, 2, 1, 0]] * 4, used_tiebreakers=[0, 2],
                                         on_ports=["Havana", "Trujillo"], reserve=["Belize", "Campeche"],
                                         scores=[29000, 30000, 0, 27000], round=2), seed=seed))
    ends = {("empty" if state.round < state.max_rounds and max(state.scores) < state.target else "other")
            for state in (game.pop("final") for game in games)}
    assert ends == {"empty", "other"}, "the positions must reach both kinds of end"
    script = tmp_path / "transplant.js"
    script.write_text(TRANSPLANT, encoding="utf-8")
    answer = run_node({"scripts": [str(PYRANDOM), str(twin("karibik")), str(script)], "games": games})
    failures = [f"game {index} ({game['players']} players): state {failure['state']}: "
                f"{failure.get('error') or canonical(failure['record'])[:1500]}"
                for index, (game, failure) in enumerate(zip(games, answer["games"])) if failure is not None]
    assert not failures, "\n".join(failures[:3])


#: Replays each game's steps; before each, tries every bad step and reports any the twin takes.
REJECTS = """"use strict";
const fs = require("fs"), vm = require("vm");
const request = JSON.parse(fs.readFileSync(0, "utf8"));
for (const path of request.scripts) vm.runInThisContext(fs.readFileSync(path, "utf8"), {filename: path});
const taken = [];
for (const game of request.games) {
  const state = ArenaRules["karibik"].newState(game.players, game.seed, game.options);
  game.steps.forEach((step, at) => {
    for (const bad of game.bad[at]) {
      try { state.apply(bad); taken.push({seed: game.seed, at, bad}); } catch (error) { /* rejected */ }
    }
    state.apply(step);
  });
  if (!state.isTerminal()) taken.push({seed: game.seed, error: "not over after its steps"});
}
process.stdout.write(JSON.stringify(taken));
"""


def wire_json(value: Any) -> bool:
    """Whether ``value`` survives JSON with its types (no floats or bytes: the twin sees 7.0 as 7)."""
    if isinstance(value, (float, bytes)):
        return False
    if isinstance(value, list):
        return all(map(wire_json, value))
    if isinstance(value, dict):
        return all(map(wire_json, value.values())) and same_value(json.loads(json.dumps(value)), value)
    return True


def test_the_twin_rejects_what_the_engine_rejects(tmp_path) -> None:
    node()
    games = []
    for players in (2, 3, 4):
        state = GAME.new_state(players, players, {"max_rounds": 3})
        rng = random.Random(players)
        steps, bad = [], []
        while not state.is_terminal():
            step = {seat: state.random_action(seat, rng) for seat in state.acting}
            wrong = [[[seat, action] for seat, action in step.items()][1:],  # a seat missing
                     [[seat, action] for seat, action in step.items()] + [[players, step[state.acting[0]]]]]
            seat = state.acting[-1]
            for mutant in mutants(step[seat]):
                if not wire_json(mutant):
                    continue
                trial = dict(step)
                trial[seat] = mutant
                try:
                    state.clone().apply(trial)
                except IllegalAction:
                    wrong.append([[s, trial[s]] for s in sorted(trial)])
            bad.append(wrong)
            steps.append([[seat, action] for seat, action in step.items()])
            state.apply(step)
        games.append({"players": players, "seed": str(players), "options": state.options, "steps": steps,
                      "bad": bad})
    completed = subprocess.run([node(), "-e", REJECTS], capture_output=True, text=True, timeout=300, check=False,
                               input=json.dumps({"scripts": [str(PYRANDOM), str(twin("karibik"))], "games": games}))
    assert completed.returncode == 0, completed.stderr[-4000:]
    taken = json.loads(completed.stdout)
    assert sum(len(b) for game in games for b in game["bad"]) > 1000
    assert not taken, f"the twin took {len(taken)} steps the engine rejects, e.g. {taken[:3]}"
