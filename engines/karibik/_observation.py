"""What one player sees (:func:`observe`) and a full state consistent with it (:func:`determinize`).

Public: the board, ships and their cargo, every chest's state, the number of reserve pairs,
scores, the round, revealed bids and tie-breakers. Private to the seat: its own bids and
tie-breaker. Never: other players' unrevealed cards, the reserve order.
"""

from __future__ import annotations

import random
from typing import Any

from engines import State

from ._rules import CARDS, CHEST_STATES, NUM_SHIPS, OVER


def observe(state: Any, player: int) -> dict[str, Any]:
    """The observation of ``player`` (see ``protocol/games/karibik.md`` for every field)."""
    board = state.board
    revealed = state.ship + 1
    own = state.bids[player]
    return {
        "seat": player,
        "players": state.num_players,
        "board": board.as_dict(),
        "round": state.round,
        "max_rounds": state.max_rounds,
        "target": state.target,
        "scores": list(state.scores),
        "phase": state.phase,
        "acting": list(state.acting),
        "ship": state.ship if 0 <= state.ship < NUM_SHIPS and state.phase != OVER else None,
        "ships": [[area, chest] for area, chest in zip(state.ship_area, state.ship_chest)],
        "chests": [CHEST_STATES[state.chest_status[port]] for port in board.ports],
        "reserve_pairs": len(state.reserve) // 2,
        "revealed": [None if bids is None else bids[:revealed] for bids in state.bids],
        "tiebreakers": [tb if shown else None for tb, shown in zip(state.tiebreaker, state.tb_revealed)],
        "my_bids": None if own is None else list(own),
        "my_tiebreaker": state.tiebreaker[player],
        "tied": list(state.tied),
        "controller": state.controller,
        "steps_left": state.steps_left,
        "transfers_left": state.transfers_left,
    }


def determinize(observation: dict[str, Any], rng: random.Random) -> Any:
    """A full state consistent with ``observation`` (one seat's view), hidden parts sampled.

    The other players' unrevealed bids and tie-breakers are a random arrangement of their
    unrevealed cards; the reserve is the chests still in reserve in a random order. The
    state has no history or log; its rng is seeded from ``rng``.
    """
    from ._state import BOARDS, KaribikState

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
