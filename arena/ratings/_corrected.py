"""Chance-corrected points per entrant: each entrant's pairwise points share, raw and with the
luck of every game taken out (:mod:`arena.ratings._chance`) in the share that each entrant's own
blocks support (:mod:`arena.ratings._adjust`: never a wider interval than the raw one), with
95 % intervals that count a duplicate block as one observation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._adjust import corrected_estimate, raw_estimate
from ._results import GameRecord


@dataclass(frozen=True)
class CorrectedRow:
    """One entrant's points share (0 .. 1, a tie half) against everyone it met.

    Attributes:
        pairs: pairwise results (a k-player game gives k - 1 per seat).
        blocks: independent observations (duplicate blocks, or games without one).
        raw, raw_error: the share and its 95 % half-width.
        corrected, corrected_error: the same with the luck taken out.
        luck: the mean luck taken out per pairwise result, ``raw - corrected``
            (expectation zero).
        coefficient: the share of the stored luck taken out, fitted on this entrant's
            blocks: 0 (the raw figures) to 1 (the baseline's gain).
    """

    name: str
    pairs: int
    blocks: int
    raw: float
    raw_error: float
    corrected: float
    corrected_error: float
    luck: float
    coefficient: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "pairs": self.pairs, "blocks": self.blocks, "raw": self.raw,
                "raw_error": self.raw_error, "corrected": self.corrected,
                "corrected_error": self.corrected_error, "luck": self.luck, "coefficient": self.coefficient}


def corrected_points(records: Iterable[GameRecord]) -> list[CorrectedRow]:
    """Rows, best corrected share first.

    Raises:
        ValueError: a record without ``luck`` (every game needs it), or no records.
    """
    raw: dict[str, dict[object, list[float]]] = {}
    luck: dict[str, dict[object, list[float]]] = {}
    count = 0
    for g, rec in enumerate(records):
        if rec.luck is None:
            raise ValueError("a game has no luck: the chance correction needs every game's replay")
        count += 1
        unit = ("block", rec.block) if rec.block is not None else ("game", g)
        for i, name in enumerate(rec.players):
            for j in range(len(rec.players)):
                if i == j:
                    continue
                score = 1.0 if rec.ranks[i] < rec.ranks[j] else 0.5 if rec.ranks[i] == rec.ranks[j] else 0.0
                raw.setdefault(name, {}).setdefault(unit, []).append(score)
                luck.setdefault(name, {}).setdefault(unit, []).append(rec.luck[i][j])
    if not count:
        raise ValueError("no games")
    rows = []
    for name in raw:
        units = [(sum(v), sum(luck[name][unit]), len(v)) for unit, v in raw[name].items()]
        r = raw_estimate([(y, m) for y, _, m in units])
        c = corrected_estimate(units)
        pairs = sum(len(v) for v in raw[name].values())
        rows.append(CorrectedRow(name, pairs, len(raw[name]), r.mean, r.half_width, c.mean, c.half_width,
                                 r.mean - c.mean, c.coefficient))
    return sorted(rows, key=lambda row: (-row.corrected, row.name))


def corrected_table(rows: list[CorrectedRow], baseline: str) -> str:
    """The rows as a text table for a person, with the baseline named."""
    width = max(len("bot"), *(len(row.name) for row in rows))
    lines = [f"chance-corrected points (baseline {baseline}; duplicate blocks as the unit; 95 % intervals; "
             "taken: the share of the baseline's luck taken out, fitted on the entrant's blocks)",
             f"{'bot':<{width}}  {'raw %':>14}  {'corrected %':>14}  {'mean luck':>9}  {'taken':>5}  {'blocks':>6}"]
    for row in rows:
        lines.append(f"{row.name:<{width}}  {100 * row.raw:6.1f} +/- {100 * row.raw_error:4.1f}  "
                     f"{100 * row.corrected:6.1f} +/- {100 * row.corrected_error:4.1f}  {row.luck:+9.4f}  "
                     f"{row.coefficient:5.2f}  "
                     f"{row.blocks:>6}")
    return "\n".join(lines)
