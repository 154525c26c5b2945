"""Type-confused copies of a legal action, for fuzzing the engines' legality checks.

:func:`mutants` lists every value that differs from an action at exactly one place (the
whole action, or one element at any depth) by a change a buggy or hostile bot might make:
a float or a bool for an int, an int for a bool, a str for an int, bytes for a str, ``None``,
the element wrapped in a list, a dict for a list, an empty list, a list one longer or
shorter, the largest ints. Shared by the engine property tests and the mutating test bot
(``tests/arena/bots/mutating.py``), so both fuzz the same shapes. Standard library only.
"""

from __future__ import annotations

from typing import Any

#: The extreme ints msgpack can carry (a bot cannot send anything beyond 64 bits).
WIRE_INTS = (2**64 - 1, -(2**63))
#: Ints beyond 64 bits, for in-process callers (search bots, tests) that are not limited by msgpack.
HUGE_INTS = (2**64, -(2**63) - 1, 10**30)


def replacements(value: Any, wire: bool = True) -> list[Any]:
    """What ``value`` itself may be replaced by; ``wire``: only values msgpack can encode."""
    kind = type(value)
    found: list[Any] = [None, [], [value], {"0": value}]
    if kind is int:
        found += [float(value), value % 2 == 1, str(value), value + 1, -value - 1, *WIRE_INTS]
        if not wire:
            found += list(HUGE_INTS)
    elif kind is bool:
        found += [int(value), float(value), str(value).lower()]
    elif kind is float:
        found += [int(value), str(value)]
    elif kind is str:
        found += [value.encode(), "", value + "x", value.upper() if value.upper() != value else value.lower(), 0]
    elif kind is bytes:
        found += [value.decode("latin-1")]
    elif kind is list:
        found += [{str(index): item for index, item in enumerate(value)}, tuple(value) if not wire else value,
                  value[:-1], value + value[-1:], value[::-1]]
        if value:
            found += [value[0]]
    elif kind is dict:
        found += [list(value.values()), list(value)]
    return [candidate for candidate in _unique(found) if not _same(candidate, value)]


def mutants(action: Any, wire: bool = True) -> list[Any]:
    """Every one-place mutation of ``action`` (see the module docstring), without duplicates."""
    found = replacements(action, wire)
    if type(action) is list:
        for index, item in enumerate(action):
            for mutant in mutants(item, wire):
                found.append(action[:index] + [mutant] + action[index + 1:])
    elif type(action) is dict:
        for key, item in action.items():
            for mutant in mutants(item, wire):
                found.append({**action, key: mutant})
    return _unique(found)


def _unique(values: list[Any]) -> list[Any]:
    kept: list[Any] = []
    for value in values:
        if not any(_same(value, other) for other in kept):
            kept.append(value)
    return kept


def _same(a: Any, b: Any) -> bool:
    # Strict equality restated rather than imported from engines: the oracle of what counts
    # as a mutation must not depend on the comparison under test. (Keys here are all str.)
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if type(a) is dict:
        return len(a) == len(b) and all(k in b and _same(v, b[k]) for k, v in a.items())
    return a == b
