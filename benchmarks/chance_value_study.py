"""How much of Dead Man's Draw's spread can a chance correction remove, with richer values?
(issue 35: the shipped baseline removes a fifth of it; the goal asks for two thirds).

The same games as ``bench_variance.py --fixed --games dead-mans-draw --share 0.15``: duplicate
pairs (seeds 7000 and up) between the heuristic (A) and the heuristic making a random move,
a function of what it sees, in 15 % of its decisions (B). Each value family is fitted on the
reference policies' self-play (seeds 10^6 and up; the validation games of ``mlp`` 2 * 10^6 and
up), never on these games, and each game's luck is computed as ``arena.ratings._chance`` does
(``resample_chance``, ``--samples`` draws of every chance event). Printed per family: the games
to a 95 % verdict of the block unit with the correction against plain duplicate, as
``bench_variance.py`` computes them (formula at the raw mean), and the correlation of a block's
summed luck with its result.

- ``shipped``: ``engines/dead_mans_draw/chance_baseline.json`` (a logistic of the running standing);
- ``logistic``: a logistic of ten features per seat (the score, the row's gain and its gain
  times the chance the next draw busts, the turn, the second cards of the stacks, the suits
  banked, the row's length, and three of them times the game's progress);
- ``variates``: the same features' chance increments as linear control variates (each one's
  sum over a game has expectation zero exactly), by game stage (thirds of the draw pile), with
  the shipped value's increments, weighted by least squares on the self-play games;
- ``mlp``: a one-layer network (tanh) on seat 0's observation tensor (``envs``' codec) and the
  features, symmetrised, trained on self-play states with early stopping on held-out games;
- ``lookahead``: ``logistic`` read on the state the reference policy makes of this one without
  drawing (:func:`resolved`: an ability's target chosen, a collect made).
- ``playout``: seat 0's mean chance to win after ``--playouts`` playouts of the search's own
  playout policy for ``--turns`` turns (:class:`Playout`), with common random numbers.

Each family's luck is also shown scaled by the coefficient that fits it best on the same games
(an upper bound), and with ``--beta-games N`` by the one fitted on N self-play games instead
(fixed before these games: what ``engines/dead_mans_draw/chance_baseline.json``'s gains do).

Figures and what they say: BENCHMARKS.md, "Richer values for Dead Man's Draw".

``--decompose FAMILY`` splits ``result - V(deal)`` of every game into its chance terms (the
luck) and its decision terms (the expected change of the value at each decision), by who
decided and what kind of decision: what is not luck stays in the corrected score.

    PYTHONPATH=. python benchmarks/chance_value_study.py --blocks 300 --fit 3000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ratings._baseline import game_baseline  # noqa: E402
from benchmarks.bench_variance_play import duplicate_block, mixed_policy, request_for  # noqa: E402
from bots.dead_mans_draw._playout import act  # noqa: E402
from engines import Replay, get_game  # noqa: E402
from engines.dead_mans_draw._cards import suit_of, value_of  # noqa: E402

GAME = "dead-mans-draw"
DECK = 60.0


def features(state) -> np.ndarray:
    """(2, 10) features per seat (see the module docstring)."""
    scores = state.scores()
    progress = 1.0 - len(state.draw) / DECK
    turn, row, draw = state.turn, state.row, state.draw
    gain = sum(max(0, value_of(card) - (value_of(state.banks[turn][suit_of(card)][-1])
                                        if state.banks[turn][suit_of(card)] else 0)) for card in row)
    taken = {value_of(card) if state.strange_waters else suit_of(card) for card in row}
    bust = (sum(1 for card in draw if (value_of(card) if state.strange_waters else suit_of(card)) in taken)
            / len(draw)) if draw else 1.0
    out = np.zeros((state.num_players, 10))
    for seat, f in enumerate(out):
        stacks = state.banks[seat]
        f[0] = scores[seat] / 10
        f[3] = float(seat == turn)
        f[4] = sum(value_of(stack[-2]) for stack in stacks if len(stack) > 1) / 10
        f[5] = sum(1 for stack in stacks if stack) / 10
        if seat == turn:
            f[1], f[2], f[6] = gain / 10, gain / 10 * bust, len(row) / 10
        f[7], f[8], f[9] = f[0] * progress, f[1] * progress, f[3] * progress
    return out


def result(state) -> float:
    ranks = state.outcome().ranks
    return 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def selfplay(games: int, base: int):
    """(states, result, replay) of ``games`` self-play games of the reference mix."""
    out = []
    for number in range(games):
        rng = random.Random(base + number)
        policies = [mixed_policy(GAME, rng.choice((0.0, 0.1, 0.3))) for _ in range(2)]
        state = get_game(GAME).new_state(2, base + number, {})
        states = []
        while not state.is_terminal():
            states.append(state.clone())
            state.apply({seat: policies[seat](request_for(state, seat), rng) for seat in state.acting})
        out.append((states, result(state), Replay.of(state, GAME, base + number)))
    return out


def logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    beta = np.zeros(x.shape[1])
    for _ in range(60):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -50, 50)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge * len(y) * np.eye(x.shape[1]),
                               x.T @ (y - p) - ridge * len(y) * beta)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return beta


class Shipped:
    def __init__(self, fit) -> None:
        self.model = game_baseline(GAME).model(GAME, 2)

    def __call__(self, state, step: int) -> float:
        if state.is_terminal():
            return result(state)
        return self.model.pair_values(state.luck_features(), step)[0][1]


class Logistic:
    def __init__(self, fit) -> None:
        x, y = [], []
        for states, final, _ in fit:
            for state in states:
                f = features(state)
                x += [f[0] - f[1], f[1] - f[0]]
                y += [final, 1 - final]
        self.beta = logistic_fit(np.array(x), np.array(y))

    def __call__(self, state, step: int) -> float:
        if state.is_terminal():
            return result(state)
        f = features(state)
        return sigmoid(float(self.beta @ (f[0] - f[1])))


def resolved(state):
    """``state`` after the reference policy (the search's playout policy, ``bots.dead_mans_draw.
    _playout.act``) has made every decision short of a draw: an ability's target, a collect."""
    rng = random.Random(0)
    copy = None
    for _ in range(8):
        if state.is_terminal() or len(state.acting) != 1 or state.pending is None:
            break
        choice = act(state, rng)
        if state.pending[1] == "draw" and choice == "draw":
            break
        copy = copy or state.clone()
        copy.apply_checked({copy.acting[0]: choice})
        state = copy
    return state


class Lookahead(Logistic):
    """:class:`Logistic` of the state the reference policy makes of this one without a draw."""

    def __init__(self, fit) -> None:
        super().__init__([([resolved(state) for state in states], final, replay) for states, final, replay in fit])

    def __call__(self, state, step: int) -> float:
        return super().__call__(resolved(state), step)


class Playout:
    """Seat 0's mean chance to win after ``playouts`` playouts of the reference policy (the
    search's: ``bots.dead_mans_draw._search.playout``, ``turns`` turns, then its static
    ``win_chance``; ``turns`` 0: to the end of the game). Each playout first deals what no seat
    knows again, from a canonical order (the unseen cards sorted, then shuffled), with seed j
    for playout j of every state: common random numbers, so two states that differ by one card
    drawn play out alike and the value reads only what is public."""

    def __init__(self, fit, playouts: int = 8, turns: int = 2) -> None:
        self.playouts, self.turns = playouts, turns or 10**6

    def __call__(self, state, step: int) -> float:
        from bots.dead_mans_draw._search import playout, win_chance

        if state.is_terminal():
            return result(state)
        log, history = state.log, state.history
        state.log, state.history = [], []  # not copied into every playout
        try:
            total = 0.0
            for j in range(self.playouts):
                rng = random.Random(j)
                copy = state.clone()
                copy.rng = random.Random(rng.getrandbits(64))
                cut = len(copy.draw) - max(copy.known, default=0)
                hidden = sorted(copy.draw[:cut])
                rng.shuffle(hidden)
                copy.draw[:cut] = hidden
                while copy.phase == "characters" and copy.acting:
                    copy.apply({seat: copy.random_action(seat, rng) for seat in copy.acting})
                playout(copy, self.turns, rng)
                total += win_chance(copy, 0)
            return total / self.playouts
        finally:
            state.log, state.history = log, history


class Mlp:
    """tanh(x W1 + b1) w2 + b2 on [tensor of one seat, that seat's features less the other's]."""

    def __init__(self, fit, hidden: int = 32, epochs: int = 6, validation=None) -> None:
        from envs import codec_for

        self.codec = codec_for(GAME, 2)
        x, y = self._rows(fit)
        xv, yv = self._rows(validation)
        rng = np.random.default_rng(0)
        self.w1 = (rng.standard_normal((x.shape[1], hidden)) / math.sqrt(x.shape[1])).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal(hidden) / math.sqrt(hidden)).astype(np.float32)
        self.b2 = np.float32(0.0)
        self._train(x, y, xv, yv, epochs)

    def _inputs(self, state, seat: int) -> np.ndarray:
        f = features(state)
        return np.concatenate([self.codec.tensor(state.observation(seat)), f[seat] - f[1 - seat], [1.0]]
                              ).astype(np.float32)

    def _rows(self, games):
        x, y = [], []
        for states, final, _ in games:
            for state in states:
                x += [self._inputs(state, 0), self._inputs(state, 1)]
                y += [final, 1 - final]
        return np.array(x), np.array(y, np.float32)

    def _logit(self, x):
        hidden = np.tanh(x @ self.w1 + self.b1)
        return hidden @ self.w2 + self.b2, hidden

    def _loss(self, x, y) -> float:
        p = 1 / (1 + np.exp(-self._logit(x)[0]))
        return float(-(y * np.log(p + 1e-7) + (1 - y) * np.log(1 - p + 1e-7)).mean())

    def _train(self, x, y, xv, yv, epochs: int, rate: float = 1e-3, batch: int = 512, l2: float = 1e-4) -> None:
        params = [self.w1, self.b1, self.w2]
        first = [np.zeros_like(p) for p in params]
        second = [np.zeros_like(p) for p in params]
        best = (math.inf, None)
        rng = np.random.default_rng(1)
        t = 0
        for epoch in range(epochs):
            order = rng.permutation(len(x))
            for start in range(0, len(x), batch):
                pick = order[start:start + batch]
                xb, yb = x[pick], y[pick]
                z, hidden = self._logit(xb)
                g = (1 / (1 + np.exp(-z)) - yb) / len(pick)
                grads = [xb.T @ (np.outer(g, self.w2) * (1 - hidden**2)) + l2 * self.w1,
                         (np.outer(g, self.w2) * (1 - hidden**2)).sum(0), hidden.T @ g + l2 * self.w2]
                self.b2 -= rate * 10 * g.sum()
                t += 1
                for i, grad in enumerate(grads):
                    first[i] = 0.9 * first[i] + 0.1 * grad
                    second[i] = 0.999 * second[i] + 0.001 * grad * grad
                    params[i] -= rate * (first[i] / (1 - 0.9**t)) / (np.sqrt(second[i] / (1 - 0.999**t)) + 1e-8)
            loss = self._loss(xv, yv)
            print(f"  mlp epoch {epoch}: held-out log loss {loss:.4f} (0.6931 knows nothing)", flush=True)
            if loss < best[0]:
                best = (loss, [p.copy() for p in params] + [self.b2])
        self.w1, self.b1, self.w2, self.b2 = best[1]

    def __call__(self, state, step: int) -> float:
        if state.is_terminal():
            return result(state)
        z, _ = self._logit(np.stack([self._inputs(state, 0), self._inputs(state, 1)]))
        p = 1 / (1 + np.exp(-z))
        return float((p[0] + 1 - p[1]) / 2)


def increments(replay: Replay, value, samples: int, stages: int = 0):
    """Per game: the luck under ``value`` (a float), or with ``stages`` the summed chance
    increments of every feature and of the shipped value by stage (a vector)."""
    game = get_game(GAME)
    rng = random.Random(f"study\x1f{replay.seed}")
    state = game.new_state(2, replay.seed, replay.options)

    def read(s, step, stage):
        if not stages:
            return value(s, step)
        base = np.concatenate([features(s)[0] - features(s)[1], [value(s, step)]])
        out = np.zeros(stages * len(base))
        out[stage * len(base):(stage + 1) * len(base)] = base
        return out

    deals = [read(game.new_state(2, rng.getrandbits(53), replay.options), 0, 0) for _ in range(samples)]
    total = read(state, 0, 0) - sum(deals) / samples
    for t, step in enumerate(replay.steps):
        stage = min(stages - 1, int((1 - len(state.draw) / DECK) * stages)) if stages else 0
        sampled = []
        for _ in range(samples):
            other = state.resample_chance(rng)
            other.apply(step)
            sampled.append(read(other, t + 1, stage))
        state.apply(step)
        total = total + read(state, t + 1, stage) - sum(sampled) / samples
    return total


def study_blocks(blocks: int):
    table = {"A": mixed_policy(GAME, 0.0), "B": mixed_policy(GAME, 0.15, fixed=True)}
    return [duplicate_block(GAME, ["A", "B"], table, 7000 + seed) for seed in range(blocks)]


def ratio(rows: np.ndarray) -> tuple[float, float, float]:
    """Games to a verdict, plain duplicate over (block unit, block unit corrected); the
    correlation of a block's luck with its result."""
    raw, luck = rows[:, :, 0], rows[:, :, 1]
    mean = raw.mean()
    plain = raw.var(ddof=1) / (mean - 0.5) ** 2
    block = 2 * (raw.sum(1) / 2).var(ddof=1) / (mean - 0.5) ** 2
    corrected = 2 * ((raw - luck).sum(1) / 2).var(ddof=1) / (mean - 0.5) ** 2
    return plain / block, plain / corrected, float(np.corrcoef(raw.sum(1), luck.sum(1))[0, 1])


def scaled(rows: np.ndarray, beta: float) -> float:
    """Games to a verdict, plain duplicate over the block unit corrected by ``beta`` times the
    luck (any fixed ``beta`` keeps every term's expectation at zero)."""
    raw, luck = rows[:, :, 0], rows[:, :, 1]
    plain = raw.var(ddof=1) / (raw.mean() - 0.5) ** 2
    return plain / (2 * ((raw - beta * luck).sum(1) / 2).var(ddof=1) / (raw.mean() - 0.5) ** 2)


def best_beta(rows: np.ndarray) -> float:
    """The ``beta`` that minimises the corrected blocks' variance on ``rows`` (fit it on other
    games than those it corrects)."""
    raw, luck = rows[:, :, 0].sum(1), rows[:, :, 1].sum(1)
    return float(np.cov(raw, luck)[0, 1] / luck.var(ddof=1))


def rows_of(blocks, luck_of) -> np.ndarray:
    rows = []
    for block in blocks:
        pair = []
        for game in block:
            a = game["seats"].index("A")
            ranks = game["ranks"]
            score = 1.0 if ranks[a] < ranks[1 - a] else 0.5 if ranks[a] == ranks[1 - a] else 0.0
            luck = luck_of(Replay.from_dict(game["replay"]))
            pair.append((score, luck if a == 0 else -luck))
        rows.append(pair)
    return np.array(rows)


def decompose(blocks, value, samples: int) -> list[str]:
    """Variance of a game's summed luck and summed decision terms (A's view), by decider and kind."""
    sums = []
    for block in blocks:
        for game in block:
            replay = Replay.from_dict(game["replay"])
            a = game["seats"].index("A")
            sign = 1 if a == 0 else -1
            rng = random.Random(1)
            state = get_game(GAME).new_state(2, replay.seed, replay.options)
            terms: Counter = Counter()
            for t, step in enumerate(replay.steps):
                seat = next(iter(step))
                key = ("A" if seat == a else "B", state.decision(seat))
                before = value(state, t)
                mean = 0.0
                for _ in range(samples):
                    other = state.resample_chance(rng)
                    other.apply(step)
                    mean += value(other, t + 1) / samples
                state.apply(step)
                terms[key + ("decision",)] += sign * (mean - before)
                terms[key + ("luck",)] += sign * (value(state, t + 1) - mean)
            sums.append(terms)
    keys = sorted(set().union(*sums))
    lines = []
    for part in ("luck", "decision"):
        total = np.array([sum(v for k, v in s.items() if k[2] == part) for s in sums])
        lines.append(f"all {part} terms: variance {total.var():.4f}")
    for key in keys:
        x = np.array([s.get(key, 0.0) for s in sums])
        lines.append(f"  {key[0]} {key[1]:<9} {key[2]:<8} mean {x.mean():+.4f}  variance {x.var():.4f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=300)
    parser.add_argument("--fit", type=int, default=3000, help="self-play games to fit on")
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--families", nargs="*", default=["shipped", "logistic", "lookahead", "variates", "mlp"])
    parser.add_argument("--decompose", metavar="FAMILY", help="only the decomposition under FAMILY")
    parser.add_argument("--playouts", type=int, default=8, help="playouts per value of the playout family")
    parser.add_argument("--beta-games", type=int, default=0, metavar="N",
                        help="also scale each family's luck by the coefficient that best predicts the result "
                             "from it on the first N self-play games (fixed before these games)")
    parser.add_argument("--turns", type=int, default=2,
                        help="turns per playout of the playout family (0: to the end of the game)")
    args = parser.parse_args()
    start = time.process_time()
    blocks = study_blocks(args.blocks)
    fit = selfplay(args.fit, 10**6)
    print(f"{args.blocks} blocks and {args.fit} self-play games: {time.process_time() - start:.0f} s CPU", flush=True)
    families = {"shipped": Shipped, "logistic": Logistic, "lookahead": Lookahead, "mlp": None, "variates": None,
                "playout": lambda fit: Playout(fit, args.playouts, args.turns)}
    if args.decompose:
        for line in decompose(blocks, families[args.decompose](fit), args.samples):
            print(line)
        return
    for name in args.families:
        start = time.process_time()
        if name == "variates":
            shipped = Shipped(fit)
            x = np.array([increments(replay, shipped, args.samples, stages=3) for _, _, replay in fit])
            y = np.array([final for _, final, _ in fit])
            xc = x - x.mean(0)
            theta = np.linalg.solve(xc.T @ xc + 1e-3 * np.eye(x.shape[1]), xc.T @ (y - y.mean()))
            inside = 1 - ((y - y.mean() - xc @ theta) ** 2).mean() / y.var()
            print(f"  variates: {x.shape[1]} variates, R^2 on the self-play games {inside:.3f}", flush=True)
            rows = rows_of(blocks, lambda replay: float(theta @ increments(replay, shipped, args.samples, stages=3)))
        else:
            value = Mlp(fit, validation=selfplay(max(1, args.fit // 5), 2 * 10**6)) if name == "mlp" \
                else families[name](fit)
            rows = rows_of(blocks, lambda replay: float(increments(replay, value, args.samples)))
        block, corrected, correlation = ratio(rows)
        beta = best_beta(rows)
        print(f"  {name}: the luck scaled by {beta:.2f} (fitted on these games: an upper bound) gives "
              f"{scaled(rows, beta):.2f}x", flush=True)
        if args.beta_games and name != "variates":
            y, luck = [], []
            for _, final, replay in fit[:args.beta_games]:
                y.append(final)
                luck.append(float(increments(replay, value, args.samples)))
            fitted = float(np.cov(y, luck)[0, 1] / np.var(luck, ddof=1))
            print(f"  {name}: the luck scaled by {fitted:.2f}, fitted on {len(y)} self-play games (not these), "
                  f"gives {scaled(rows, fitted):.2f}x; A {100 * (rows[:, :, 0] - fitted * rows[:, :, 1]).mean():.1f} % "
                  f"corrected so", flush=True)
        print(f"{name}: fewer games than plain duplicate: block unit {block:.2f}x, corrected {corrected:.2f}x; "
              f"luck-result correlation {correlation:.2f}; A {100 * rows[:, :, 0].mean():.1f} % raw, "
              f"{100 * (rows[:, :, 0] - rows[:, :, 1]).mean():.1f} % corrected; "
              f"{time.process_time() - start:.0f} s CPU", flush=True)


if __name__ == "__main__":
    main()
