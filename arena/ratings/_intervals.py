"""Covariance of Bradley-Terry ratings, the intervals and LOS built from it, and
the groups of entrants that can be compared at all.

The covariance is the cluster-robust ("sandwich") estimate: the curvature of
the fitted log-likelihood (the model's information ``H``, prior included) on
both sides of the spread of the per-block score vectors ``g_b`` (the gradient
of each block's log-likelihood at the fit; a block is a duplicate deal, or a
game without one). Games of one block are correlated (the same deal) and so
are the k(k-1)/2 pairs of one k-player game; the sandwich counts each block
as one independent observation, as the block bootstrap does, without its
resampling noise and at the cost of one pass over the games.

The spread misses a share of the information, and entrants that played few
blocks miss most of it: at the fit, entrant i's score equation makes its
gradients over its own ``b_i`` blocks sum to (nearly) zero, so their spread
has ``b_i - 1`` degrees of freedom and falls short of the information
``H_ii`` by ``1 / b_i`` of it on average. So each entrant's own block's worth
of the model's information is given back::

    meat = sum_b g_b g_b^T + H~        cov = H^-1 meat H^-1

``H~`` is ``H`` with the information of each pair of entrants that met
divided by the fewer blocks of the two, ``min(b_i, b_j)``, and each
entrant's prior information by its own ``b_i`` (positive semi-definite, as
``H``). An entrant with a single block, whose gradient there is about zero
(after a 1-1 duplicate pair), keeps all of its links in ``H~`` and gets
the model's ``H^-1`` variance; one with many blocks gets a negligible extra
term. Two rules were dropped: ``H / B`` with ``B`` the blocks of the whole
tournament gave a newcomer +-35 Elo after one 1-1 pair among 2000 blocks,
where the model says +-460 (and covered a newcomer's true rating 55 % of
the time); ``D H D`` with ``D = diag(1 / sqrt(b_i))`` weakened the
newcomer's link to its opponent by the opponent's many blocks and left it
4 % under the model. So the interval never vanishes where the model sees
uncertainty: one game, a 10-0 sweep (every block has the same score vector)
or duplicate pairs that always split. The coverage this gives in
simulation is in docs/ratings.md.
"""

from __future__ import annotations

import math

import numpy as np

from ._encode import Encoded
from ._fit import ELO_PER_NAT

#: Normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054
_CHUNK = 1 << 17  # games per vectorised step: bounds the temporaries of 10^6-game inputs


def information(scores: np.ndarray, prior: float, strength: np.ndarray) -> np.ndarray:
    """Negative Hessian of the (penalised) Bradley-Terry log-likelihood at ``strength``."""
    n = len(strength)
    p = 1.0 / (1.0 + np.exp(-(strength[:, None] - strength[None, :])))
    w = (scores + scores.T) * p * (1.0 - p)
    hess = -w
    hess[np.diag_indices(n)] += w.sum(axis=1)
    if prior:
        q = 1.0 / (1.0 + np.exp(-strength))
        hess[np.diag_indices(n)] += prior * q * (1.0 - q)
    return hess


def seat_gradients(enc: Encoded, strength: np.ndarray):
    """Per group of k-player games: ``(group, g)`` with ``g[game, seat]`` the gradient of
    that game's pairwise log-likelihood with respect to the seat's log-strength."""
    for group in enc.groups:
        x = strength[group.players]
        g = np.zeros(x.shape)
        for a in range(group.k):
            for b in range(a + 1, group.k):
                won = np.where(group.ranks[:, a] < group.ranks[:, b], 1.0, 0.5)
                r = won - 1.0 / (1.0 + np.exp(x[:, b] - x[:, a]))
                g[:, a] += r
                g[:, b] -= r
        yield group, g


def score_spread(enc: Encoded, strength: np.ndarray, gradients=None) -> np.ndarray:
    """``sum_b g_b g_b^T`` over blocks (n x n), in bounded memory; ``gradients`` gives the seats'
    gradients as :func:`seat_gradients` does (default: it, Bradley-Terry's)."""
    gradients = gradients or seat_gradients
    n = enc.n
    out = np.zeros(n * n)
    if not enc.has_blocks:  # a block per game: outer products of each game's seat gradients
        for group, g in gradients(enc, strength):
            for lo in range(0, len(g), _CHUNK):
                gg, pl = g[lo:lo + _CHUNK], group.players[lo:lo + _CHUNK]
                cells = (pl[:, :, None] * n + pl[:, None, :]).ravel()
                out += np.bincount(cells, weights=(gg[:, :, None] * gg[:, None, :]).ravel(), minlength=n * n)
        return out.reshape(n, n)
    # Sum each block's gradient per entrant, then pair up the entries of each block.
    keys, values = [], []
    for group, g in gradients(enc, strength):
        keys.append(block_keys(enc, group))
        values.append(g.ravel())
    key, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    value = np.bincount(inverse, weights=np.concatenate(values))
    block, player = key // n, key % n  # sorted by block: each block's entries are contiguous
    for offset in range(0, len(key)):
        same = block[offset:] == block[: len(key) - offset]
        if not same.any():
            break
        i = np.nonzero(same)[0]
        j = i + offset
        w = value[i] * value[j]
        out += np.bincount(player[i] * n + player[j], weights=w, minlength=n * n)
        if offset:
            out += np.bincount(player[j] * n + player[i], weights=w, minlength=n * n)
    return out.reshape(n, n)


def blocks_played(enc: Encoded) -> np.ndarray:
    """``b_i``: the number of blocks (a duplicate deal, or a game without one) each entrant
    played in (n,), counting a block once however many of its games the entrant sat in."""
    n = enc.n
    if not enc.has_blocks:
        return sum(np.bincount(g.players.ravel(), minlength=n) for g in enc.groups)
    keys = np.sort(np.concatenate([block_keys(enc, group) for group in enc.groups]))
    # Distinct keys by hand: np.unique without return_inverse took 0.9 s for 800,000
    # keys here (numpy 2.4), this 0.03 s.
    first = np.concatenate(([True], keys[1:] != keys[:-1]))
    return np.bincount(keys[first] % n, minlength=n)


def block_keys(enc: Encoded, group) -> np.ndarray:
    """``block * n + entrant`` per seat of ``group``'s games, flattened like its ``players``."""
    return (enc.game_block[group.game][:, None] * enc.n + group.players).ravel()


def own_block_share(enc: Encoded, scores: np.ndarray, prior: float, strength: np.ndarray) -> np.ndarray:
    """The shrink term of the module docstring (n x n, positive semi-definite): the model's
    information of each pair of entrants that met, divided by the fewer blocks of the two,
    and each entrant's prior information divided by its own blocks."""
    played = np.maximum(blocks_played(enc), 1)
    share = information(scores / np.minimum.outer(played, played), 0.0, strength)
    if prior:
        share[np.diag_indices(enc.n)] += information(np.zeros_like(scores), prior, strength).diagonal() / played
    return share


def robust_covariance(enc: Encoded, scores: np.ndarray, prior: float, strength: np.ndarray) -> np.ndarray:
    """Covariance of the log-strengths (n x n): the shrunk sandwich of the module docstring.

    Without a prior the likelihood only sees differences; the covariance is
    then that of the mean-zero log-strengths (a pseudo-inverse in the gauge).
    """
    hess = information(scores, prior, strength)
    bread = model_covariance(hess, prior)
    return bread @ (score_spread(enc, strength) + own_block_share(enc, scores, prior, strength)) @ bread


def model_covariance(hess: np.ndarray, prior: float) -> np.ndarray:
    """``H^-1``: the model's covariance of the log-strengths (in the mean-zero gauge
    without a prior, where ``H`` is singular)."""
    return np.linalg.pinv(hess + (0.0 if prior else 1.0 / len(hess)))


def elo_covariance(log_cov: np.ndarray, anchor_index: int | None) -> np.ndarray:
    """Covariance of the Elo ratings as placed: mean 0, or entrant ``anchor_index`` pinned."""
    n = len(log_cov)
    if anchor_index is None:
        gauge = np.eye(n) - 1.0 / n
    else:
        gauge = np.eye(n)
        gauge[:, anchor_index] -= 1.0
    return ELO_PER_NAT**2 * gauge @ log_cov @ gauge.T


def half_widths(cov: np.ndarray) -> np.ndarray:
    """95 % Wald half-widths per entrant: ``Z95 * sqrt(diag(cov))``, never negative."""
    return Z95 * np.sqrt(np.clip(np.diag(cov), 0.0, None))


def groups_of(scores: np.ndarray) -> np.ndarray:
    """Label per entrant of the groups that played each other (connected components of
    "met in some game"), numbered from 0 in order of their first entrant."""
    met = (scores + scores.T) > 0
    n = len(met)
    label = np.full(n, -1)
    count = 0
    for start in range(n):
        if label[start] >= 0:
            continue
        reach = np.zeros(n, dtype=bool)
        reach[start] = True
        while True:
            grown = reach | met[reach].any(axis=0)
            if grown.sum() == reach.sum():
                break
            reach = grown
        label[reach] = count
        count += 1
    return label


def los_from_covariance(elo: np.ndarray, cov: np.ndarray, group: np.ndarray) -> list[list[float | None]]:
    """``los[i][j]`` = P(i stronger than j) under the normal approximation of the ratings
    with covariance ``cov``; None between entrants of different groups (never compared)."""
    n = len(elo)
    out: list[list[float | None]] = []
    for i in range(n):
        row: list[float | None] = []
        for j in range(n):
            if group[i] != group[j]:
                row.append(None)
                continue
            diff = float(elo[i] - elo[j])
            var = float(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
            if i == j:
                row.append(0.5)
            elif var <= 0.0:
                row.append(0.5 if diff == 0.0 else float(diff > 0.0))
            else:
                row.append(0.5 * math.erfc(-diff / math.sqrt(2.0 * var)))
        out.append(row)
    return out
