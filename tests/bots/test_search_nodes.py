"""The search bots' fixed budget (``--nodes N``, issue 33): no clock read, so the same request
and seed give the same action; the hello says ``clock_bound`` only without it."""

import io
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest

import protocol
from bots.dead_mans_draw import _search as dmd_search
from bots.karibik import _search as karibik_search
from bots.opito_bay import _search as opito_search
from bots.sdk import read_message
from engines import get_game

from ._play import request_for

CASES = [("dead-mans-draw", dmd_search, 2), ("opito-bay", opito_search, 2), ("karibik", karibik_search, 3)]


def _no_clock():
    raise AssertionError("the search read the clock in --nodes mode")


def _decisions(game_id, count):
    """The first ``count`` states of a random game with more than one legal action to choose from."""
    game = get_game(game_id)
    state = game.new_state(2, seed=4)
    rng = random.Random(4)
    found = []
    while not state.is_terminal() and len(found) < count:
        seat = state.acting[0]
        legal = state.legal_actions(seat)
        if legal is None or len(legal) > 1:  # None: not enumerated (Karibik's bribe), a real choice
            found.append((state.clone() if hasattr(state, "clone") else state.fork(), seat))
        state.apply({s: state.random_action(s, rng) for s in state.acting})
    return found


@pytest.mark.parametrize("game_id, module, nodes", CASES, ids=[case[0] for case in CASES])
def test_nodes_mode_never_reads_the_clock_and_repeats(monkeypatch, game_id, module, nodes):
    monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=_no_clock))
    decisions = _decisions(game_id, 3)
    assert len(decisions) == 3
    for state, seat in decisions:
        request = request_for(state, seat, move_ms=1, time_left_ms=1)  # no time at all: nodes decide
        first = module.search(request, random.Random(11), nodes=nodes)
        assert module.search(request, random.Random(11), nodes=nodes) == first
        assert request.legal is None or first in request.legal or request.kind == "move"


def _hello(*args: str) -> dict:
    process = subprocess.run([sys.executable, "-m", "bots.search", *args], input=protocol.encode(protocol.hello("t"))
                             + protocol.encode(protocol.bye()), capture_output=True, timeout=60)
    assert process.returncode == 0, process.stderr
    return read_message(io.BytesIO(process.stdout))


def test_the_hello_says_clock_bound_only_without_nodes():
    clocked, fixed = _hello(), _hello("--nodes", "50")
    assert clocked["clock_bound"] is True and protocol.parse_hello(clocked).clock_bound is True
    assert "clock_bound" not in fixed and protocol.parse_hello(fixed).clock_bound is False
    assert _hello("--nodes=7").keys() == fixed.keys()


@pytest.mark.parametrize("args, message", [
    (["--nodes", "0"], "error: python -m bots.search: --nodes must be an integer in 1..10000000 (iterations a "
                       "decision), got '0'"),
    (["--nodes", "-3"], "error: python -m bots.search: --nodes must be an integer in 1..10000000 (iterations a "
                        "decision), got '-3'"),
    (["--nodes"], "error: python -m bots.search takes only --nodes N (a fixed search budget), got '--nodes'"),
    (["--fast"], "error: python -m bots.search takes only --nodes N (a fixed search budget), got '--fast'"),
])
def test_a_bad_nodes_option_is_one_error_line(args, message):
    process = subprocess.run([sys.executable, "-m", "bots.search", *args], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
    assert (process.returncode, process.stderr.strip(), process.stdout) == (2, message, "")


def test_a_hello_with_a_clock_bound_that_is_not_a_boolean_is_refused():
    message = {"type": "hello", "protocol": "1.1", "name": "b", "version": "1", "games": [], "clock_bound": 1}
    with pytest.raises(protocol.BadMessage, match="field 'clock_bound' must be true or false, got 1"):
        protocol.parse_hello(message)
