"""The reference search bots' one command-line option: ``--nodes N``, a fixed search budget.

By default a search bot thinks for a share of its clock, so how far it searches (and so what
it plays) depends on how fast the machine is at that moment: the same deal and seeds can give
another game (``arena rerun`` departs). With ``--nodes N`` it searches exactly N iterations a
decision and never reads the clock: the same deal and seeds give the same game, at the cost of
thinking as long as N iterations take (keep N small enough for the move limit).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

#: The most iterations a decision may take: beyond it no move limit could hold it.
MAX_NODES = 10_000_000


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
