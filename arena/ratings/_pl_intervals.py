"""95 % error bars of Plackett-Luce ratings, cluster-robust as Bradley-Terry's are.

The same shrunk sandwich as :mod:`._intervals` (see its docstring), with the Plackett-Luce
likelihood's pieces: its information ``H`` at the fit (prior included), the spread of the
per-block score vectors (each seat's gradient of its game's finishing-order log-likelihood,
summed per duplicate block), and ``H~``: ``H``'s links between entrants divided by the fewer
blocks of the two and each entrant's prior information by its own blocks. For two-player
games Plackett-Luce is Bradley-Terry, and so are these intervals (tested).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ._encode import Encoded, check_names, encode, ml_exists, pair_scores
from ._fit import place, resolve_prior
from ._intervals import blocks_played, elo_covariance, half_widths, model_covariance, score_spread
from ._plackett_luce import _Orders, plackett_luce_objective, solve_plackett_luce
from ._results import GameRecord


def plackett_luce_intervals(
    records: Iterable[GameRecord] | Encoded,
    *,
    anchor: tuple[str, float] | None = None,
    prior_draws: float | None = None,
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """``(names, elo, half_width)``: the Plackett-Luce ratings (as :func:`fit_plackett_luce`
    places them) and the half-width of each one's 95 % interval, in ``names`` order.

    Raises:
        ValueError: as :func:`fit_plackett_luce`.
    """
    enc = encode(records)
    prior = resolve_prior(prior_draws, ml_exists(pair_scores(enc)))
    strength, _ = solve_plackett_luce(enc, prior)
    _, _, hess = plackett_luce_objective(enc, prior)(strength, True)
    _, _, links = plackett_luce_objective(enc, 0.0)(strength, True)
    bread = model_covariance(hess, prior)
    meat = score_spread(enc, strength, seat_gradients) + _own_block_share(enc, links, hess - links)
    anchor_index = None if anchor is None else check_names(enc, [anchor[0]], "anchor")[0]
    cov = elo_covariance(bread @ meat @ bread, anchor_index)
    return enc.names, place(enc, strength, anchor), half_widths(cov)


def seat_gradients(enc: Encoded, strength: np.ndarray):
    """Per group of k-player games: ``(group, g)`` with ``g[game, seat]`` the gradient of that
    game's finishing-order log-likelihood with respect to the seat's log-strength (the terms
    :func:`plackett_luce_objective` sums)."""
    for group in enc.groups:
        orders = _Orders(group, enc.n)
        beta = strength[orders.players]
        shift = beta.max(axis=1, keepdims=True)
        log_tail = np.logaddexp.accumulate((beta - shift)[:, ::-1], axis=1)[:, ::-1]
        inv = np.exp(-np.take_along_axis(log_tail, orders.first, axis=1))
        a = np.take_along_axis(np.cumsum(orders.weight * inv, axis=1), orders.last, axis=1)
        yield group, orders.weight - np.exp(beta - shift) * a


def _own_block_share(enc: Encoded, links: np.ndarray, prior_part: np.ndarray) -> np.ndarray:
    """``H~``: the likelihood's information between each pair of entrants divided by the fewer
    blocks of the two (a weighted Laplacian again, so positive semi-definite), and each
    entrant's prior information (``prior_part``, diagonal) by its own blocks."""
    played = np.maximum(blocks_played(enc), 1)
    weights = -links / np.minimum.outer(played, played)
    np.fill_diagonal(weights, 0.0)
    share = -weights
    share[np.diag_indices(enc.n)] = weights.sum(axis=1)
    return share + np.diag(prior_part.diagonal() / played)
