"""Helpers to build explicit positions for the rules tests."""

from engines.karibik import CARIBBEAN, KaribikState

B = CARIBBEAN
#: Default ship areas: Arriba..Fuego on the six start areas (no two adjacent; each borders two
#: ports only). The first five also serve as out-of-the-way places for ships a test ignores.
STARTS = ["Caicos Passage", "Gulf of Uraba", "Sigsbee Deep", "Mosquito Bank", "Gulf of Guacanayabo", "Venezuelan Basin"]


def area(name):
    return B.area_id(name)


def position(players=2, ships=STARTS, **kwargs):
    """A state from explicit contents (see KaribikState.from_setup)."""
    return KaribikState.from_setup(players, ships=ships, **kwargs)


def events(state, start=0, kind=None):
    found = [dict(e.data) for e in state.log[start:]]
    return [e for e in found if kind is None or e["type"] == kind]


def play(state, *actions):
    """Apply single-seat actions in order."""
    for action in actions:
        state.apply_action(action)
    return state


def arriba_to_seat0(steps, players=2, **kwargs):
    """A position where seat 0 controls Arriba with ``steps`` movement (no thief unless steps == 0)."""
    from engines.karibik import CARDS

    mine = [steps] + [c for c in CARDS if c != steps][:5]
    theirs = [steps - 1] + [c for c in CARDS if c != steps - 1][:5]
    state = position(players, bids=[mine] + [theirs] * (players - 1), **kwargs)
    assert (state.ship, state.controller, state.steps_left) == (0, 0, steps), "setup did not give seat 0 Arriba"
    return state
