"""The board as data: areas (name, kind, colour, region, chest value, x/y) and adjacency.

A :class:`Board` is built from plain data (see :mod:`._caribbean` for the shipped map) and
validated once; everything the rules need per move (neighbours, port and hideout lists,
distances) is precomputed as tuples, so a board is immutable and shared by every state.
Another map is just another ``Board.from_data(...)`` call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

PORT = "port"
HIDEOUT = "hideout"
START = "start"
SEA = "sea"
KINDS = (PORT, HIDEOUT, START, SEA)

#: Player colours in seat order: seat i owns the hideouts of COLOURS[i].
COLOURS = ("red", "blue", "green", "yellow")

NUM_SHIPS = 6


@dataclass(frozen=True)
class Area:
    """One sea area. ``colour`` is set for hideouts only, ``chest`` (its value) for ports only."""

    id: int
    name: str
    kind: str
    region: str
    x: float
    y: float
    colour: str | None = None
    chest: int | None = None


class Board:
    """An immutable, validated map.

    Attributes (all tuples, indexed by area id where per-area):
    ``areas``, ``neighbours``, ``ports`` (area ids), ``starts``, ``hideouts`` (area ids),
    ``owner`` (colour index of a hideout's owner, else ``None``), ``chest_value`` (0 unless a
    port), ``distance`` (shortest-path steps between every pair of areas).

    Raises ``ValueError`` naming the problem when the data is not a usable board.
    """

    def __init__(self, name: str, areas: Sequence[Area], edges: Iterable[tuple[int, int]]) -> None:
        self.name = name
        self.areas = tuple(areas)
        count = len(self.areas)
        neighbours: list[list[int]] = [[] for _ in range(count)]
        for a, b in edges:
            if a == b or not (0 <= a < count and 0 <= b < count):
                raise ValueError(f"board {name!r}: bad edge ({a}, {b}); areas are 0..{count - 1}")
            if b in neighbours[a]:
                raise ValueError(f"board {name!r}: edge {self.areas[a].name} - {self.areas[b].name} given twice")
            neighbours[a].append(b)
            neighbours[b].append(a)
        self.neighbours = tuple(tuple(sorted(n)) for n in neighbours)
        self.ports = tuple(a.id for a in self.areas if a.kind == PORT)
        self.starts = tuple(a.id for a in self.areas if a.kind == START)
        self.hideouts = tuple(a.id for a in self.areas if a.kind == HIDEOUT)
        self.owner = tuple(COLOURS.index(a.colour) if a.kind == HIDEOUT else None for a in self.areas)
        self.chest_value = tuple(a.chest or 0 for a in self.areas)
        self.distance = tuple(self._distances_from(area) for area in range(count))
        self._validate()
        self._wire = {
            "name": name,
            "areas": [[a.name, a.kind, a.colour if a.kind == HIDEOUT else a.chest, a.x, a.y] for a in self.areas],
            "adjacent": [list(n) for n in self.neighbours],
        }

    @classmethod
    def from_data(cls, name: str, areas: Sequence[Sequence[Any]], edges: Iterable[tuple[str, str]]) -> Board:
        """Build a board from rows ``(name, kind, extra, region, x, y)`` and name pairs.

        ``extra`` is the chest value for a port, the owner colour for a hideout, else None.
        """
        built = []
        for index, (area_name, kind, extra, region, x, y) in enumerate(areas):
            if kind not in KINDS:
                raise ValueError(f"board {name!r}: area {area_name!r} has kind {kind!r}; use one of {KINDS}")
            built.append(Area(index, area_name, kind, region, float(x), float(y),
                              colour=extra if kind == HIDEOUT else None,
                              chest=extra if kind == PORT else None))
        ids = {area.name: area.id for area in built}
        if len(ids) != len(built):
            raise ValueError(f"board {name!r}: area names must be unique")
        try:
            pairs = [(ids[a], ids[b]) for a, b in edges]
        except KeyError as error:
            raise ValueError(f"board {name!r}: edge names unknown area {error.args[0]!r}") from None
        return cls(name, built, pairs)

    def as_dict(self) -> dict[str, Any]:
        """The board for observations: ``{"name", "areas": [[name, kind, colour|value, x, y]], "adjacent"}``.

        The same dict is returned every time; callers must not modify it.
        """
        return self._wire

    def area_id(self, name: str) -> int:
        """The id of the area called ``name``; raises ``KeyError`` if there is none."""
        for area in self.areas:
            if area.name == name:
                return area.id
        raise KeyError(f"no area {name!r} on board {self.name!r}")

    def _distances_from(self, source: int) -> tuple[int, ...]:
        far = len(self.areas)
        dist = [far] * len(self.areas)
        dist[source] = 0
        queue = [source]
        for area in queue:
            for other in self.neighbours[area]:
                if dist[other] == far:
                    dist[other] = dist[area] + 1
                    queue.append(other)
        return tuple(dist)

    def _validate(self) -> None:
        where = f"board {self.name!r}"
        if any(d == len(self.areas) for d in self.distance[0]):
            raise ValueError(f"{where}: the areas are not all connected")
        if len(self.starts) != NUM_SHIPS:
            raise ValueError(f"{where}: needs {NUM_SHIPS} start areas, has {len(self.starts)}")
        if self.ports != tuple(range(len(self.ports))):
            # A chest is named by its port's area id and the observation's `chests` lists the
            # ports in area order: ports first makes the two numberings one (protocol page).
            raise ValueError(f"{where}: the ports must be the first areas (ids 0..{len(self.ports) - 1})")
        for area in self.areas:
            if area.kind == PORT and not (isinstance(area.chest, int) and area.chest > 0):
                raise ValueError(f"{where}: port {area.name!r} needs a positive chest value")
            if area.kind == HIDEOUT and area.colour not in COLOURS:
                raise ValueError(f"{where}: hideout {area.name!r} needs a colour from {COLOURS}")
        for colour in COLOURS:
            if not any(self.areas[h].colour == colour for h in self.hideouts):
                raise ValueError(f"{where}: colour {colour!r} has no hideout")
