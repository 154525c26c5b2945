"""The baseline value estimate of the chance correction, fixed before the games: a small data
file with a format name, a version and the SHA-256 of its content, checked at load.

Each game carries its own: a piece of the game (``chance_baseline`` in its descriptor's
pieces, a file in its engine folder, ``engines/<game>/chance_baseline.json``, made by
``benchmarks/chance_baseline.py`` from the reference bots' self-play), read here through the
descriptor by :func:`game_baseline`. A game without one has no correction:
:class:`NoBaseline` says so, and the commands show the raw figures. The file holds, per game id
(its own) and number of players, the two weights of :class:`ValueModel` and its gain (the share
of the luck the correction takes out). The correction is unbiased whatever the weights and the gain are,
as long as they do not depend on the games being corrected; the hash makes
"which baseline was used" one short string a report can print, and a file edited by hand (or
truncated) is refused instead of silently correcting with other numbers.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import get_game

FORMAT = "pirate-arena-chance-baseline"
VERSION = 2
#: versions this arena reads: 1 has no gain (1 is meant)
READS = (1, 2)


class BaselineError(ValueError):
    """The baseline file is missing, malformed, of another version, or fails its hash."""


class NoBaseline(BaselineError):
    """The game has no chance baseline (its descriptor names none): no correction for it, the
    raw figures stand. The message is the line a command shows in the correction's place."""

    def __init__(self, game: str) -> None:
        super().__init__(f"not available for {game}: no chance baseline")
        self.game = game


@dataclass(frozen=True)
class ValueModel:
    """``V_ij(s)``: the chance that seat i finishes ahead of seat j from state s (a tie half).

    At a finished state it is the result itself (1, 1/2, 0 from the ranks). Before that it is
    ``sigmoid(d * (weight + progress * t / length))`` with ``d = (f_i - f_j) / scale``, ``f``
    the game's running score per seat (its ``outcome().scores`` on a state in progress, or the
    state's ``luck_features()`` if it has one), ``t`` the steps played. Antisymmetric:
    ``V_ij + V_ji = 1``.

    ``gain``: the share of a game's luck under this value that the correction takes out, a
    control variate's coefficient (``score - gain * luck``), fitted on other self-play games
    than the weights: a value whose steps move more than the result they foresee is trusted
    less. Every term of the luck has expectation zero, so any fixed gain keeps the corrected
    score unbiased; the fitted one makes its spread smallest on those games.
    """

    weight: float
    progress: float
    scale: float
    length: float
    gain: float = 1.0

    def pair_values(self, features: Sequence[float], step: int) -> list[list[float]]:
        """``V`` of a state in progress as a k x k matrix (diagonal 1/2)."""
        slope = (self.weight + self.progress * step / self.length) / self.scale
        k = len(features)
        out = [[0.5] * k for _ in range(k)]
        for i in range(k):
            for j in range(i + 1, k):
                x = slope * (features[i] - features[j])
                v = 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0
                out[i][j], out[j][i] = v, 1.0 - v
        return out


@dataclass(frozen=True)
class Baseline:
    """The value models per (game id, players), and the file's identity."""

    models: Mapping[tuple[str, int], ValueModel]
    version: int
    sha256: str
    source: str

    def model(self, game: str, players: int) -> ValueModel:
        """The model of ``game`` at ``players`` seats; BaselineError if the file has none."""
        try:
            return self.models[(game, players)]
        except KeyError:
            known = ", ".join(f"{g}/{p}" for g, p in sorted(self.models)) or "none"
            raise BaselineError(f"{self.source}: no baseline value for {game} with {players} players "
                                f"(the file has {known})") from None

    @property
    def label(self) -> str:
        """``v2 sha256:0123abcd``: which baseline corrected the scores."""
        return f"v{self.version} sha256:{self.sha256[:12]}"


def content_hash(games: Any) -> str:
    """SHA-256 of the canonical JSON of the ``games`` table (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(games, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def make_baseline_file(games: Mapping[str, Mapping[str, Mapping[str, float]]]) -> dict[str, Any]:
    """The file's JSON for ``games[game][players] = {weight, progress, scale, length, gain}``."""
    return {"format": FORMAT, "version": VERSION, "sha256": content_hash(games), "games": games}


def baseline_path(game: str) -> Path:
    """Where the chance baseline of ``game`` lies: the file its descriptor's
    ``chance_baseline`` piece names, in its engine folder (it need not exist yet).

    Raises:
        NoBaseline: the game's descriptor names none.
        engines.UnknownGame: no such game.
    """
    pieces = get_game(game).pieces
    if not pieces.has("chance_baseline"):
        raise NoBaseline(game)
    return pieces.file("chance_baseline", game)


def game_baseline(game: str) -> Baseline:
    """The chance baseline ``game`` carries (:func:`baseline_path`), read and checked.

    Raises:
        NoBaseline: the game has none.
        BaselineError: its file is bad (see :func:`load_baseline`) or holds another game.
    """
    baseline = load_baseline(baseline_path(game))
    others = sorted({other for other, _ in baseline.models if other != game})
    if others:
        raise BaselineError(f"{baseline.source}: the chance baseline of {game} holds values of {', '.join(others)}")
    return baseline


def load_baseline(path: str | Path) -> Baseline:
    """Read and check a baseline file (a game's own: :func:`game_baseline`).

    Raises:
        BaselineError: unreadable, not JSON, another format or version, a hash that does not
            match the content, or a model without its numbers (scale and length positive, a
            gain from 0 to 2; a version 1 file has no gain and means 1).
    """
    source = str(path)
    try:
        data = json.loads(Path(source).read_text())
    except (OSError, ValueError) as error:
        raise BaselineError(f"{source}: cannot read the chance baseline ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(f"{source}: not a chance baseline (format {FORMAT!r} expected)")
    version = data.get("version")
    if version not in READS:
        raise BaselineError(f"{source}: chance baseline version {version!r}; this arena reads "
                            f"versions {', '.join(map(str, READS))}")
    games = data.get("games")
    if content_hash(games) != data.get("sha256"):
        raise BaselineError(f"{source}: the chance baseline's content does not match its sha256; "
                            "it was changed after it was made (make it again with benchmarks/chance_baseline.py)")
    keys = ("weight", "progress", "scale", "length") + (("gain",) if version >= 2 else ())
    models = {}
    for game, by_players in games.items():
        for players, fields in by_players.items():
            try:
                model = ValueModel(*(float(fields[key]) for key in keys))
            except (KeyError, TypeError, ValueError):
                raise BaselineError(f"{source}: {game}/{players} needs numbers {', '.join(keys)}") from None
            if model.scale <= 0 or model.length <= 0:
                raise BaselineError(f"{source}: {game}/{players}: scale and length must be positive")
            if not 0 <= model.gain <= 2:  # also refuses nan
                raise BaselineError(f"{source}: {game}/{players}: the gain must be from 0 to 2, got {model.gain}")
            models[(game, int(players))] = model
    return Baseline(models, version, data["sha256"], source)
