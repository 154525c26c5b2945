"""Shared helpers for the Dead Man's Draw rules tests."""

from __future__ import annotations

from engines.dead_mans_draw import DeadMansDrawState


def make(**setup) -> DeadMansDrawState:
    """A position from explicit contents (see ``DeadMansDrawState.from_setup``)."""
    return DeadMansDrawState.from_setup(**setup)


def play(state: DeadMansDrawState, *steps: tuple[str, object]) -> DeadMansDrawState:
    """Apply ``(kind, action)`` steps of the single acting seat, checking each decision kind."""
    for kind, action in steps:
        assert len(state.acting) == 1, f"expected one acting seat, have {state.acting}"
        seat = state.acting[0]
        assert state.decision(seat) == kind, f"seat {seat} decides {state.decision(seat)!r}, not {kind!r}"
        state.apply_action(action)
    return state


def bank(state: DeadMansDrawState, seat: int) -> dict[str, list[str]]:
    """The bank of ``seat`` as in the observation: suit letter -> cards, highest first."""
    return state.observation(seat)["banks"][seat]


def discard(state: DeadMansDrawState) -> list[str]:
    return state.observation(0)["discard"]


def row(state: DeadMansDrawState) -> list[str]:
    return state.observation(0)["row"]


def deciding(state: DeadMansDrawState) -> tuple[int, str, list]:
    """(seat, decision kind, legal actions) of the single acting seat."""
    (seat,) = state.acting
    return seat, state.decision(seat), state.legal_actions(seat)


def events(state: DeadMansDrawState, kind: str, seat: int = 0) -> list[dict]:
    return [event for event in state.events_for(seat) if event["type"] == kind]
