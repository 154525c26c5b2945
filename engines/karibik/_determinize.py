"""A full Karibik state consistent with one seat's observation (for search bots and
OpenSpiel's resampling): the hidden bids and the reserve's order sampled."""

from __future__ import annotations

import random
from typing import Any

from engines import State

from ._rules import CARDS, CHEST_STATES, NUM_SHIPS, OVER
from ._state import BOARDS, KaribikState


def determinize(observation: dict[str, Any], rng: random.Random) -> Any:
    """A full state consistent with ``observation`` (one seat's view), hidden parts sampled.

    The other players' unrevealed bids and tie-breakers are a random arrangement of their
    unrevealed cards; the reserve is the chests still in reserve in a random order. The
    state has no history or log; its rng is seeded from ``rng``.
    """
    board = BOARDS[observation["board"]["name"]]
    options = {"board": board.name, "max_rounds": observation["max_rounds"]}
    state = object.__new__(KaribikState)
    State.__init__(state, observation["players"], random.Random(rng.random()), options)
    state._init_fixed(board)
    state.round = observation["round"]
    state.scores = list(observation["scores"])
    state.phase = observation["phase"]
    state.acting = tuple(observation["acting"])
    ship = observation["ship"]
    # The ship being resolved: none before the first reveal; all six are done when the game is over.
    state.ship = NUM_SHIPS if state.phase == OVER else -1 if ship is None else ship
    state.ship_area = [area for area, _ in observation["ships"]]
    state.ship_chest = [chest for _, chest in observation["ships"]]
    state.chest_status = list(state.chest_status)
    for port, status in zip(board.ports, observation["chests"]):
        state.chest_status[port] = CHEST_STATES.index(status)
    reserve = [port for port, status in zip(board.ports, observation["chests"]) if status == "reserve"]
    rng.shuffle(reserve)
    state.reserve = reserve
    state.tied = tuple(observation["tied"])
    state.controller = observation["controller"]
    state.steps_left = observation["steps_left"]
    state.transfers_left = observation["transfers_left"]
    seat = observation["seat"]
    for other, (shown, tiebreaker) in enumerate(zip(observation["revealed"], observation["tiebreakers"])):
        state.tb_revealed[other] = tiebreaker is not None
        if other == seat:
            state.bids[other] = None if observation["my_bids"] is None else list(observation["my_bids"])
            state.tiebreaker[other] = observation["my_tiebreaker"]
        elif shown is not None:
            hidden = [card for card in CARDS if card not in shown and card != tiebreaker]
            rng.shuffle(hidden)
            if tiebreaker is None:
                tiebreaker = hidden.pop()
            state.bids[other] = list(shown) + hidden
            state.tiebreaker[other] = tiebreaker
    return state
