"""What one player sees (:func:`observe`); a full state consistent with it is
:func:`engines.karibik._determinize.determinize`.

Public: the board, ships and their cargo, every chest's state, the number of reserve pairs,
scores, the round, revealed bids and tie-breakers. Private to the seat: its own bids and
tie-breaker. Never: other players' unrevealed cards, the reserve order.
"""

from __future__ import annotations

from typing import Any

from ._rules import CHEST_STATES, NUM_SHIPS, OVER


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
