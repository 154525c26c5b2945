"""The reference search bots' budget: a share of the clock (:func:`budget`), or ``--nodes N``, a
fixed number of iterations (:func:`parse_nodes`), one or the other passed to a search
(:func:`searched`).

By default a search bot thinks for a share of its clock, so how far it searches (and so what
it plays) depends on how fast the machine is at that moment: the same deal and seeds can give
another game (``arena rerun`` departs). With ``--nodes N`` it searches exactly N iterations a
decision and never reads the clock: the same deal and seeds give the same game, at the cost of
thinking as long as N iterations take (keep N small enough for the move limit).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bots.sdk import Request

#: The most iterations a decision may take: beyond it no move limit could hold it.
MAX_NODES = 10_000_000
#: The longest a search bot thinks about one decision, however much time it has.
MAX_BUDGET_S = 2.0


def budget(request: Request, most_s: float = MAX_BUDGET_S) -> float:
    """Seconds to search: well inside both the move limit and the time left, at most ``most_s``."""
    return max(0.0, min(0.4 * request.move_ms, 0.25 * request.time_left_ms, 1000 * most_s) / 1000)


def searched(search_action: Callable[..., Any], request: Request, rng: random.Random, nodes: int | None) -> Any:
    """``search_action``'s action for ``request``: exactly ``nodes`` iterations and no clock where
    given (``--nodes N``: a game replays the same), else as many as :func:`budget` allows."""
    if nodes is not None:
        return search_action(request, rng, iterations=nodes)
    return search_action(request, rng, budget_s=budget(request))


def parse_nodes(argv: Sequence[str], program: str) -> int | None:
    """``--nodes N`` (or ``--nodes=N``) from ``argv``: N, or ``None`` for the clock's budget.
    Anything else is one ``error:`` line on stderr and exit code 2."""
    args = list(argv)
    if not args:
        return None
    if len(args) == 2 and args[0] == "--nodes":
        text = args[1]
    elif len(args) == 1 and args[0].startswith("--nodes="):
        text = args[0].removeprefix("--nodes=")
    else:
        _fail(f"{program} takes only --nodes N (a fixed search budget), got {' '.join(args)!r}")
    if not text.isdigit() or not 1 <= int(text) <= MAX_NODES:
        _fail(f"{program}: --nodes must be an integer in 1..{MAX_NODES} (iterations a decision), got {text!r}")
    return int(text)


def _fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)
