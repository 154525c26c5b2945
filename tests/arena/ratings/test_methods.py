"""Issue 45: a rating method is a small value (``arena.ratings.RatingMethod``: a key, headings,
a fit, intervals); the standings carry each one's rating and every table shows one column per
method, so a third method is one module and one line in ``METHODS``."""

from dataclasses import dataclass

import numpy as np

from arena.ratings import METHODS, GameRecord, compute_standings
from arena.ratings import _standings
from arena.report import _tables

GAMES = [GameRecord(("ann", "bob", "cid"), (1, 2, 3))] * 6 + [GameRecord(("bob", "cid", "ann"), (1, 1, 3))] * 3


@dataclass(frozen=True)
class Seats:
    """A third method, as a test: each entrant's rating is its number of seats taken."""

    key: str = "seats"
    column: str = "seats"
    heading: str = "Seats"
    title: str = "seats"

    def applies(self, players: int) -> bool:
        return True

    def fit(self, enc, bradley_terry, anchor, prior_draws) -> np.ndarray:
        counts = np.zeros(enc.n)
        for group in enc.groups:
            counts += np.bincount(group.players.ravel(), minlength=enc.n)
        return counts

    def intervals(self, records):
        return {}


def test_plackett_luce_is_a_method_of_the_standings():
    assert [method.key for method in METHODS] == ["pl_elo"]
    row = compute_standings(GAMES).rows[0]
    assert row.ratings.keys() == {"pl_elo"} and row.pl_elo == row.ratings["pl_elo"]
    assert row.as_dict()["pl_elo"] == row.pl_elo


def test_a_third_method_is_one_line_and_every_table_shows_it(monkeypatch):
    methods = (*METHODS, Seats())
    monkeypatch.setattr(_standings, "METHODS", methods)
    monkeypatch.setattr(_tables, "METHODS", methods)
    standings = compute_standings(GAMES)
    assert {row.name: row.ratings["seats"] for row in standings.rows} == {"ann": 9.0, "bob": 9.0, "cid": 9.0}
    assert standings.as_dict()["rows"][0]["seats"] == 9.0
    text = _tables.standings_table(standings, players=3).splitlines()
    assert text[0].split()[-3:] == ["elo", "seats", "faults"]
    csv = _tables.standings_csv(standings).splitlines()
    assert csv[0].endswith(",pl_elo,seats,faults") and csv[1].split(",")[-2] == "9.00"
