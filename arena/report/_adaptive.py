"""Where an adaptive tournament's question stands, as lines under its standings and in its
report: decided (the answer, the error, the games it took), stopped undecided at a bound, or
open (which entrants the next round is for)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..tournament import ResultsStore, StoredGame


def adaptive_lines(store: ResultsStore, games: Sequence[StoredGame]) -> list[str]:
    """The lines of an adaptive tournament's question (none for another format). The plan is
    rebuilt from the stored games (:func:`arena.tournament._adaptive.plan_of`): the same looks
    the run made."""
    try:
        raw = json.loads(store.meta("config") or "{}")
    except ValueError:
        return []
    if not isinstance(raw, dict) or raw.get("format") != "adaptive":
        return []
    from ..tournament import plan_of
    from ..tournament import ConfigError, config_from_dict

    try:
        config = config_from_dict(raw, Path(store.meta("config_path") or "tournament.toml"))
    except ConfigError as error:
        return [f"adaptive: the question cannot be read back ({error})"]
    plan = plan_of(config, games)
    question = config.adaptive
    assert question is not None
    if plan.stop is not None:
        line = f"adaptive: {plan.stop}"
        if plan.stop.startswith("undecided") and "error is spent" not in plan.stop:
            line += f"; play more rounds with: arena tournament extend {store.path} --rounds N"
        return [line]
    head = f"adaptive: {question.goal} at error {question.error:g}"
    if plan.look is None:
        return [f"{head}: open, round 1 not complete ({len(games)} games)"]
    undecided = plan.undecided()
    return [f"{head}: open after {plan.look.round + 1} rounds ({plan.look.games} games): {plan.look.verdict.reason}",
            f"adaptive: round {plan.round + 1} is for {len(undecided)} undecided: {', '.join(undecided)}"]
