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
    pair_game: np.ndarray
    pair_first: np.ndarray
    pair_second: np.ndarray
    pair_score: np.ndarray
    game_block: np.ndarray  # (n_games,) int64 block index; a game without a block id is its own block
    n_blocks: int
    has_blocks: bool

    @property
    def n(self) -> int:
        return len(self.names)


def encode(records: Iterable[GameRecord]) -> Encoded:
    """Turn records into :class:`Encoded` arrays; entrants sorted by name.

    Raises:
        ValueError: no records, or an item that is not a :class:`GameRecord`.
    """
    records = list(records)
    if not records:
        raise ValueError("no games: the ratings need at least one GameRecord")
    for i, rec in enumerate(records):
        if not isinstance(rec, GameRecord):
            raise ValueError(
                f"item {i} is a {type(rec).__name__}, not a GameRecord; "
                "build records with GameRecord(players=..., ranks=...)"
            )
    names = tuple(sorted({p for rec in records for p in rec.players}))
    index = {name: i for i, name in enumerate(names)}

    by_k: dict[int, tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]]] = {}
    block_ids: dict[str, int] = {}
    game_block = np.empty(len(records), dtype=np.int64)
    n_blocks = 0
    has_blocks = False
    for g, rec in enumerate(records):
        games, pl, rk = by_k.setdefault(len(rec.players), ([], [], []))
        games.append(g)
        pl.append(tuple(index[p] for p in rec.players))
        rk.append(rec.ranks)
        if rec.block is None:
            game_block[g] = n_blocks
            n_blocks += 1
        else:
            has_blocks = True
            b = block_ids.get(rec.block)
            if b is None:
                b = block_ids[rec.block] = n_blocks
                n_blocks += 1
            game_block[g] = b

    groups = []
    pg, pf, ps, sc = [], [], [], []
    for k in sorted(by_k):
        games, pl, rk = by_k[k]
        game = np.asarray(games, dtype=np.int64)
        players = np.asarray(pl, dtype=np.int64).reshape(-1, k)
        ranks = np.asarray(rk, dtype=np.int64).reshape(-1, k)
        order = np.argsort(ranks, axis=1, kind="stable")
        players = np.take_along_axis(players, order, axis=1)
        ranks = np.take_along_axis(ranks, order, axis=1)
        groups.append(SeatGroup(k, game, players, ranks))
        for a in range(k):
            for b in range(a + 1, k):
                pg.append(game)
                pf.append(players[:, a])
                ps.append(players[:, b])
                sc.append(np.where(ranks[:, a] < ranks[:, b], 1.0, 0.5))
    return Encoded(
        names=names,
        n_games=len(records),
        groups=tuple(groups),
        pair_game=np.concatenate(pg),
        pair_first=np.concatenate(pf),
        pair_second=np.concatenate(ps),
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
    cell = enc.pair_first * n + enc.pair_second
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
