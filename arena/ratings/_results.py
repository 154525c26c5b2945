"""The input data model: one finished game as entrant names and ranks."""

from __future__ import annotations

from dataclasses import dataclass

MIN_PLAYERS = 2
#: Ranks are stored as signed 64-bit integers.
MAX_RANK = 2**63


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as the ratings package sees it.

    Any number of players from 2 up (the arena plays 2 to 8; the NASCAR test
    data has 43 per race).

    Attributes:
        players: entrant names by seat (seat order matters only for
            :func:`write_pgn`, which gives White to the earlier seat).
        ranks: finishing rank per seat, 1 = best; equal ranks are a tie. Ranks
            need not be dense (``(1, 1, 3)`` and ``(1, 1, 2)`` mean the same).
        block: optional duplicate-deal block id. Games of one block (e.g. the
            seat rotations of one deal) are resampled together by the
            bootstrap, are one observation of every interval, LOS and SPRT,
            and form the game pairs of the pentanomial SPRT.
        luck: optional k x k matrix, ``luck[i][j]`` the part of seat i's
            result against seat j that chance explains
            (:func:`arena.ratings._chance.game_luck`); antisymmetric. When
            present, comparisons and standings can report chance-corrected
            scores beside the raw ones.

    Lists are accepted and stored as tuples.

    Raises:
        ValueError: fewer than 2 players, ``ranks`` and
            ``players`` of different lengths, a name that is not a non-empty
            string, a name seated twice, or a rank that is not an int in
            1 .. 2**63 - 1.
    """

    players: tuple[str, ...]
    ranks: tuple[int, ...]
    block: str | None = None
    luck: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self) -> None:
        players = tuple(self.players)
        ranks = tuple(self.ranks)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "ranks", ranks)
        problem = record_problem(players, ranks, self.block)
        if problem is None and self.luck is not None:
            luck = tuple(tuple(float(x) for x in row) for row in self.luck)
            object.__setattr__(self, "luck", luck)
            if len(luck) != len(players) or any(len(row) != len(players) for row in luck):
                problem = f"luck must be a {len(players)} x {len(players)} matrix"
        if problem is not None:
            raise ValueError(problem)


def trusted_record(players: tuple[str, ...], ranks: tuple[int, ...], block: str | None) -> GameRecord:
    """A :class:`GameRecord` from values already checked with :func:`record_problem` (readers
    of large files validate once, not twice)."""
    record = object.__new__(GameRecord)
    object.__setattr__(record, "players", players)
    object.__setattr__(record, "ranks", ranks)
    object.__setattr__(record, "block", block)
    object.__setattr__(record, "luck", None)
    return record


def record_problem(players: tuple[object, ...], ranks: tuple[object, ...], block: object) -> str | None:
    """Return what is wrong with a would-be record, or None if it is valid.

    Shared by :class:`GameRecord` and the readers, so a bad line in a results
    file and a bad constructor call get the same words.
    """
    if len(players) < MIN_PLAYERS:
        return f'"players" has {len(players)} entries; a game needs at least {MIN_PLAYERS}'
    if len(ranks) != len(players):
        return f'"ranks" has {len(ranks)} entries but "players" has {len(players)}'
    for name in players:
        if not isinstance(name, str) or not name:
            return f'player {name!r} is not a non-empty string'
    if len(set(players)) != len(players):
        seen: set[object] = set()
        dup = next(p for p in players if p in seen or seen.add(p))
        return f"player {dup!r} is seated twice in one game"
    for rank in ranks:
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            return f"rank {rank!r} is not an integer >= 1 (1 = best)"
        if rank >= MAX_RANK:
            return f"rank {rank} is beyond 64 bits (at most {MAX_RANK - 1})"
    if block is not None and not isinstance(block, str):
        return f"block {block!r} is not a string or null"
    return None
