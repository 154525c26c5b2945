"""The move phase: the controlling player's small sequential decisions for one ship.

Actions (lists): ``["move", area]``, ``["loot"]``, ``["rob", ship]``, ``["exchange", ship]``,
``["hand", ship]``, ``["deliver"]``, ``["end"]``. Actions may come before, between and after
steps, in any order and repeatedly ([R] 2, 4, 7); a transfer between ships needs the other
ship in an area adjacent to this ship's current area.
"""

from __future__ import annotations

from typing import Any

from ._rules import DELIVERED, LOOT_GAIN, NUM_SHIPS_RANGE, ON_PORT, ON_SHIP

END = ["end"]  #: the move action that ends the ship's move (compare with it; never hand it out)


class MovePhase:
    """Mixin of :class:`~._state.KaribikState` for the move decision (kind ``"move"``)."""

    def _move_actions(self) -> list[list[Any]]:
        ship = self.ship
        area = self.ship_area[ship]
        near = self.board.neighbours[area]
        carried = self.ship_chest[ship]
        actions: list[list[Any]] = []
        if self.steps_left:
            occupied = self.ship_area
            actions.extend(["move", a] for a in near if a not in occupied)
        if carried is None and self.chest_status[area] == ON_PORT:
            actions.append(["loot"])
        if self.transfers_left:
            for other in NUM_SHIPS_RANGE:
                if other != ship and self.ship_area[other] in near:
                    cargo = self.ship_chest[other]
                    if carried is None:
                        if cargo is not None:
                            actions.append(["rob", other])
                    else:
                        actions.append(["hand" if cargo is None else "exchange", other])
        if carried is not None and self.hideout_owner[area] is not None:
            actions.append(["deliver"])
        actions.append(["end"])  # a new list each time: a caller may keep or change what it gets
        return actions

    def _apply_move(self, action: list[Any]) -> None:
        verb = action[0]
        ship = self.ship
        if verb == "end":
            self._finish_move()
            self._advance()
            return
        if verb == "move":
            origin = self.ship_area[ship]
            self.ship_area[ship] = action[1]
            self.steps_left -= 1
            self.emit({"type": "move", "ship": ship, "from": origin, "to": action[1]})
        elif verb == "loot":
            area = self.ship_area[ship]
            self.chest_status[area] = ON_SHIP
            self.ship_chest[ship] = area
            self.scores[self.controller] += LOOT_GAIN
            self.emit({"type": "loot", "ship": ship, "chest": area, "player": self.controller, "gain": LOOT_GAIN})
        elif verb == "deliver":
            self._deliver(ship)
        else:
            self._transfer(verb, action[1])
        if self._move_actions() == [END]:
            self._finish_move()
            self._advance()

    def _transfer(self, verb: str, other: int) -> None:
        ship = self.ship
        mine, theirs = self.ship_chest[ship], self.ship_chest[other]
        self.ship_chest[ship], self.ship_chest[other] = theirs, mine
        self.transfers_left -= 1
        self.emit({"type": verb, "ship": ship, "other": other, "gave": mine, "got": theirs})
        # Handing over or exchanging with a ship in a hideout makes it unload there ([R] 5).
        if verb != "rob" and self.hideout_owner[self.ship_area[other]] is not None:
            self._deliver(other)

    def _deliver(self, ship: int) -> None:
        area = self.ship_area[ship]
        chest = self.ship_chest[ship]
        owner = self.hideout_owner[area]
        value = self.board.chest_value[chest]
        self.scores[owner] += value
        self.chest_status[chest] = DELIVERED
        self.ship_chest[ship] = None
        self.emit({"type": "deliver", "ship": ship, "area": area, "chest": chest, "owner": owner, "gain": value})

    def _finish_move(self) -> None:
        """End the current ship's move; a ship ending in a hideout must unload there."""
        ship = self.ship
        if self.ship_chest[ship] is not None and self.hideout_owner[self.ship_area[ship]] is not None:
            self._deliver(ship)
        self.emit({"type": "move_end", "ship": ship})
        # Protocol 1.x alias of move_end: removing an event type needs a major version (SPEC §14).
        self.emit({"type": "end", "ship": ship})
        self.controller = None
        self.steps_left = 0
