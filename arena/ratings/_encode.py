"""Records to numpy arrays: entrant indices, finishing orders, pairwise scores.

Everything downstream (fits, bootstrap, standings) works on these arrays, so
the Python-level loop over records runs once per call, not once per replicate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ._results import GameRecord


@dataclass(frozen=True)
class SeatGroup:
    """All games with the same number of players ``k``.

    ``players[g, t]`` is the entrant index of the t-th best finisher of game
    ``game[g]``; ``ranks[g, t]`` its rank (non-decreasing along ``t``).
    """

    k: int
    game: np.ndarray  # (G,) int64: index into the record sequence
    players: np.ndarray  # (G, k) int64, sorted by rank
    ranks: np.ndarray  # (G, k) int64, non-decreasing


@dataclass(frozen=True)
class Encoded:
    """Records as arrays.

    Pairs: every game contributes k(k-1)/2 pairs ``(first[p], second[p])``
    with ``score[p]`` = points of ``first`` (1 win, 0.5 tie, 0 loss);
    ``first`` finished at least as well as ``second``.
    """

    names: tuple[str, ...]
    n_games: int
    groups: tuple[SeatGroup, ...]
    pair_game: np.ndarray  # int32
    pair_first: np.ndarray  # int32
    pair_second: np.ndarray  # int32
    pair_score: np.ndarray
    game_block: np.ndarray  # (n_games,) int64 block index; a game without a block id is its own block
    n_blocks: int
    has_blocks: bool

    @property
    def n(self) -> int:
        return len(self.names)


def encode(records: Iterable[GameRecord] | Encoded) -> Encoded:
    """Turn records into :class:`Encoded` arrays; entrants sorted by name.

    An :class:`Encoded` (what the fast file readers return) is passed through.

    Raises:
        ValueError: no records, or an item that is not a :class:`GameRecord`.
    """
    if isinstance(records, Encoded):
        return records
    records = list(records)
    if not records:
        raise ValueError("no games: the ratings need at least one GameRecord")
    for i, rec in enumerate(records):
        if not isinstance(rec, GameRecord):
            raise ValueError(
                f"item {i} is a {type(rec).__name__}, not a GameRecord; "
                "build records with GameRecord(players=..., ranks=...)"
            )
    index: dict[str, int] = {}
    seats = [index.setdefault(p, len(index)) for rec in records for p in rec.players]
    return from_columns(
        list(index),
        np.fromiter((len(rec.players) for rec in records), dtype=np.int64, count=len(records)),
        np.asarray(seats, dtype=np.int64),
        np.fromiter((r for rec in records for r in rec.ranks), dtype=np.int64, count=len(seats)),
        [rec.block for rec in records],
    )


def from_columns(
    names: Sequence[str],
    lengths: np.ndarray,
    seats: np.ndarray,
    ranks: np.ndarray,
    blocks: Sequence[str | None] | None,
) -> Encoded:
    """:class:`Encoded` arrays from games laid end to end (already validated).

    Game g seats ``lengths[g]`` players: its stretch of ``seats`` (indices into
    ``names``, any order of names) and ``ranks``. ``blocks`` is the block id
    per game (None: no block), or None for no blocks at all.
    """
    order = np.argsort(np.asarray(names, dtype=object))
    sorted_names = tuple(names[i] for i in order)
    rename = np.empty(len(names), dtype=np.int64)
    rename[order] = np.arange(len(names))
    seats = rename[seats]
    n_games = len(lengths)
    start = np.concatenate(([0], np.cumsum(lengths)[:-1]))

    game_block = np.arange(n_games, dtype=np.int64)
    n_blocks, has_blocks = n_games, False
    if blocks is not None and any(b is not None for b in blocks):
        ids: dict[object, int] = {}
        # a game without a block id is a block of its own: key it by its index
        keyed = [b if b is not None else (g,) for g, b in enumerate(blocks)]
        game_block = np.fromiter((ids.setdefault(key, len(ids)) for key in keyed), dtype=np.int64, count=n_games)
        n_blocks, has_blocks = len(ids), True

    groups = []
    pg, pf, ps, sc = [], [], [], []
    for k in np.unique(lengths).tolist():
        game = np.nonzero(lengths == k)[0]
        cell = start[game][:, None] + np.arange(k)
        players, rk = seats[cell], ranks[cell]
        by_rank = np.argsort(rk, axis=1, kind="stable")
        players = np.take_along_axis(players, by_rank, axis=1)
        rk = np.take_along_axis(rk, by_rank, axis=1)
        groups.append(SeatGroup(k, game, players, rk))
        for a in range(k):
            for b in range(a + 1, k):
                pg.append(game)
                pf.append(players[:, a])
                ps.append(players[:, b])
                sc.append(np.where(rk[:, a] < rk[:, b], 1.0, 0.5))
    return Encoded(
        names=sorted_names,
        n_games=n_games,
        groups=tuple(groups),
        # 32-bit indices: 6 pairs per 4-player game make these the largest arrays held
        pair_game=np.concatenate(pg).astype(np.int32),
        pair_first=np.concatenate(pf).astype(np.int32),
        pair_second=np.concatenate(ps).astype(np.int32),
        pair_score=np.concatenate(sc),
        game_block=game_block,
        n_blocks=n_blocks,
        has_blocks=has_blocks,
    )


def pair_scores(enc: Encoded, game_weight: np.ndarray | None = None) -> np.ndarray:
    """Aggregated pairwise score matrix ``S``.

    ``S[i, j]`` is the (weighted) number of points entrant i scored against j
    over all pairs; ``S + S.T`` is the number of pairs they met in.

    Args:
        enc: the encoded records.
        game_weight: optional weight per game (bootstrap multiplicities).
    """
    n = enc.n
    cell = enc.pair_first.astype(np.int64) * n + enc.pair_second
    if game_weight is None:
        w = np.ones(len(cell))
    else:
        w = np.asarray(game_weight, dtype=float)[enc.pair_game]
    scored = np.bincount(cell, weights=w * enc.pair_score, minlength=n * n)
    met = np.bincount(cell, weights=w, minlength=n * n)
    scored = scored.reshape(n, n)
    conceded = (met.reshape(n, n) - scored).T
    return scored + conceded


def ml_exists(scores: np.ndarray) -> bool:
    """True if maximum-likelihood ratings exist for this score matrix.

    The condition (Zermelo 1929, Ford 1957; Hunter 2004 "Assumption 1" for
    Plackett-Luce) is that the directed graph "i scored against j" is strongly
    connected: however the entrants are split in two, someone in each part
    took points from someone in the other. It fails when an entrant won (or
    lost) every game or when the entrants fall into disconnected groups.
    """
    adj = scores > 0
    n = len(adj)
    if n == 1:
        return True
    for graph in (adj, adj.T):
        reach = np.zeros(n, dtype=bool)
        reach[0] = True
        while True:
            grown = reach | graph[reach].any(axis=0)
            if grown.sum() == reach.sum():
                break
            reach = grown
        if not reach.all():
            return False
    return True


def check_names(enc: Encoded, names: Sequence[str], what: str) -> list[int]:
    """Indices of ``names``; ValueError naming ``what`` for an unknown one."""
    index = {name: i for i, name in enumerate(enc.names)}
    out = []
    for name in names:
        if name not in index:
            shown = ", ".join(repr(x) for x in enc.names[:10])
            more = f", ... ({len(enc.names)} in all)" if len(enc.names) > 10 else ""
            raise ValueError(f"{what} {name!r} played no game here; entrants are {shown}{more}")
        out.append(index[name])
    return out
