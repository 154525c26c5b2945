"""Shared helpers for the Opito Bay rules tests."""

from __future__ import annotations

from fractions import Fraction

from engines.opito_bay import OpitoState


def setup(aces, hands, **kwargs) -> OpitoState:
    """A position from explicit contents (see ``OpitoState.from_setup``)."""
    return OpitoState.from_setup(aces, hands, **kwargs)


def act(state: OpitoState, *actions) -> OpitoState:
    """Apply the actions of whoever is acting, in order; return the state."""
    for action in actions:
        state.apply_action(action)
    return state


def scores(state: OpitoState) -> list[Fraction]:
    return state.deal_scores()
