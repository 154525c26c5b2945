"""Where an adaptive tournament's question stands, as lines under its standings and in its
report, and as the ``adaptive`` field of ``arena standings --format json``: decided (the answer,
the error, the games it took), stopped undecided at a bound, or open (which entrants the next
round is for)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..tournament import ResultsStore, StoredGame


def adaptive_lines(store: ResultsStore, games: Sequence[StoredGame]) -> list[str]:
    """The lines of an adaptive tournament's question (none for another format)."""
    state = adaptive_state(store, games)
    return [] if state is None else state["lines"]


def adaptive_state(store: ResultsStore, games: Sequence[StoredGame]) -> dict[str, Any] | None:
    """Where an adaptive tournament's question stands, JSON-ready (``None`` for another
    format): ``goal``, ``error``, ``margin``; ``state`` (``decided``, ``undecided``: stopped at
    a bound, ``open``: still being played); ``answer``, the names of the last look's answer,
    best first (the top set or the whole order; the likeliest one unless decided; ``None``
    before the first look); ``games`` and ``rounds``, as of the last look; ``undecided``, the
    entrants whose place is still undecided, best first; ``lines``, the lines under the text
    standings. ``state`` is ``unreadable`` (with ``None`` figures) when the stored question no
    longer loads. The plan is rebuilt from the stored games
    (:func:`arena.tournament._adaptive.plan_of`): the same looks the run made."""
    try:
        raw = json.loads(store.meta("config") or "{}")
    except ValueError:
        return None
    if not isinstance(raw, dict) or raw.get("format") != "adaptive":
        return None
    from ..tournament import plan_of, ConfigError, config_from_dict

    try:
        config = config_from_dict(raw, Path(store.meta("config_path") or "tournament.toml"))
    except ConfigError as error:
        return {"goal": raw.get("goal"), "error": raw.get("error"), "margin": raw.get("margin"),
                "state": "unreadable", "answer": None, "games": None, "rounds": None, "undecided": None,
                "lines": [f"adaptive: the question cannot be read back ({error})"]}
    plan = plan_of(config, games)
    question = config.adaptive
    assert question is not None
    look = plan.look
    state = {"goal": question.goal, "error": question.error, "margin": question.margin,
             "state": "open" if plan.stop is None else "decided" if plan.stop.startswith("decided") else "undecided",
             "answer": None if look is None else [plan.names[i] for i in look.verdict.answer],
             "games": 0 if look is None else look.games, "rounds": 0 if look is None else look.round + 1,
             "undecided": plan.undecided()}
    if plan.stop is not None:
        line = f"adaptive: {plan.stop}"
        if plan.stop.startswith("undecided") and "error is spent" not in plan.stop:
            line += f"; play more rounds with: arena tournament extend {store.path} --rounds N"
        return state | {"lines": [line]}
    head = f"adaptive: {question.goal} at error {question.error:g}"
    if look is None:
        return state | {"lines": [f"{head}: open, round 1 not complete ({len(games)} games)"]}
    undecided = state["undecided"]
    return state | {"lines": [
        f"{head}: open after {look.round + 1} rounds ({look.games} games): {look.verdict.reason}",
        f"adaptive: round {plan.round + 1} is for {len(undecided)} undecided: {', '.join(undecided)}"]}
