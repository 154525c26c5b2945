"""The luck of each seat in one game: a control variate from the chance events it met, under
a baseline value fixed before the games (:mod:`arena.ratings._baseline`).

A game is replayed step by step (engines are pure: a replay is the seed and the actions). At
step t, with state ``s_t`` and the actions ``a_t`` taken there, the step's luck for the pair
(i, j) is::

    L_t = V_ij(s_{t+1}) - mean over n samples of V_ij(apply(resample(s_t), a_t))

``resample`` is the engine's ``resample_chance(rng)`` where it has one: a copy of ``s_t`` in
which only what no seat knows (the unseen part of the deck, the dice to come: a fresh random
generator) is drawn again, hands and every seat's knowledge kept. Then the real next state
and each sampled one are draws of the same chance from the same state, exactly, and ``V``
may read every hand. Otherwise the engine's ``resample(seat, rng)`` (every engine has it,
for determinized search and the leak tests) from the acting seat's knowledge, with the
value read as that seat knows the game (below). Either way ``E[L_t] = 0`` step by step: the correction ``sum_t L_t`` has expectation zero under any
fixed ``V`` and subtracting it leaves the expected score unchanged (what the tests and the
benchmark measure). Its worth is in the variance: the more of the result's spread ``V``
traces to the cards drawn and the dice rolled, the more of it the correction removes. The
deal itself is a chance event too: ``V(s_0)`` against the mean over ``n`` fresh deals. The sum
is scaled by the model's ``gain`` (a control variate's coefficient, fitted on self-play: a
crude ``V`` moves more than the result it foresees, and taking all of its luck out would add
spread); a fixed scale keeps the expectation at zero.

Without ``resample_chance``, the value of step t is read as the acting seat knows the game (the hook's ``viewer``): its
own hidden cards count, the others' only by what is public (how many). A term may use any
value fixed before the chance it follows, so each step can read with its own seat's eyes;
reading every hand at every step would count an opponent's hand, which no step changes,
again at each step (noise, not luck). The deal itself is read with nobody's eyes.

Without ``resample_chance``, steps where several seats act at once are left out (their term
is 0): a resample keeps only one seat's knowledge, and the others' actions may not be legal
in it. Leaving out a step chosen before its chance is drawn keeps the expectation zero; but
"exactly zero" then rests on ``resample`` drawing the hidden part from its distribution given
the acting seat's knowledge, and where opponents' choices hint at their hands (a strong bot
keeps its good cards, so the library holds fewer of them) it does not: the first benchmark of
Opito Bay, on ``resample``, measured a mean correction 4.8 standard errors from zero. All three
games have ``resample_chance`` (Karibik since issue 35: its reserve of chests); ``resample`` is
the fallback for an engine without one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines import EngineError, Replay, get_game

from ._baseline import ValueModel

#: Samples of each chance event: more lowers the correction's own noise, at its cost per step.
DEFAULT_SAMPLES = 4


def state_values(state: Any, model: ValueModel, step: int, viewer: int | None = None) -> list[list[float]]:
    """``V_ij`` of ``state`` (k x k) as ``viewer`` may know it: the result itself once the game
    is over."""
    if state.is_terminal():
        ranks = state.outcome().ranks
        return [[1.0 if a < b else 0.5 if a == b else 0.0 for b in ranks] for a in ranks]
    return model.pair_values(state_features(state, viewer), step)


def state_features(state: Any, viewer: int | None = None) -> Sequence[float]:
    """The running standing per seat a value reads: the state's ``luck_features(viewer)`` where
    the game has that hook (what ``viewer`` may know of the others' hidden cards must not
    enter it), else its ``outcome().scores`` (every engine scores a state in progress)."""
    hook = getattr(state, "luck_features", None)
    return hook(viewer) if hook is not None else state.outcome().scores


def game_luck(replay: Replay | Mapping[str, Any], model: ValueModel, samples: int = DEFAULT_SAMPLES,
              seed: int = 0) -> list[list[float]]:
    """The luck matrix of one game: ``luck[i][j]``, the part of seat i's result against seat j
    (1 ahead, 1/2 level, 0 behind) that the chance events explain under ``model``, times the
    model's gain (what the correction takes out: ``score - luck``). Antisymmetric.
    Deterministic for a given ``seed`` (the samples' generator). A gain of 0 (Karibik's: no
    chance event moves its value) takes nothing out: the replay is only checked, not sampled.

    Raises:
        ValueError: ``samples`` < 1, or the replay does not replay (an action the engine
            refuses: a corrupt or foreign replay).
    """
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    if not isinstance(replay, Replay):
        replay = Replay.from_dict(replay)
    game = get_game(replay.game)
    rng = random.Random(f"luck\x1f{seed}\x1f{replay.seed}")
    state = game.new_state(replay.num_players, replay.seed, replay.options)
    k = replay.num_players
    luck = [[0.0] * k for _ in range(k)]
    measured = model.gain != 0.0
    if measured:
        deals = [state_values(game.new_state(k, rng.getrandbits(53), replay.options), model, 0)
                 for _ in range(samples)]
        _add(luck, state_values(state, model, 0), deals)
    exact = hasattr(state, "resample_chance")
    for t, step in enumerate(replay.steps):
        acting = tuple(state.acting)
        viewer = None if exact else acting[0] if acting else None
        sampled = []
        if measured and (exact or len(acting) == 1):
            for _ in range(samples):
                other = state.resample_chance(rng) if exact else state.resample(acting[0], rng)
                try:
                    other.apply(step)
                except EngineError:  # the action needs what the acting seat could not know
                    sampled = []
                    break
                sampled.append(state_values(other, model, t + 1, viewer))
        try:
            state.apply(step)
        except EngineError as error:
            raise ValueError(f"the replay does not replay at step {t}: {error}") from None
        if sampled:
            _add(luck, state_values(state, model, t + 1, viewer), sampled)
    if model.gain != 1.0:
        luck = [[model.gain * x for x in row] for row in luck]
    return luck


def _add(luck: list[list[float]], actual: Sequence[Sequence[float]], sampled: list[list[list[float]]]) -> None:
    n = len(sampled)
    for i, row in enumerate(luck):
        for j in range(len(row)):
            if i != j:
                row[j] += actual[i][j] - sum(s[i][j] for s in sampled) / n
