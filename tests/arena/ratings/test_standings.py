import json

import pytest

from arena.ratings import GameRecord, bootstrap_bradley_terry, compute_standings, fit_plackett_luce

RECORDS = [
    GameRecord(("a", "b", "c", "d"), (1, 2, 3, 4)),
    GameRecord(("b", "c", "d", "a"), (1, 1, 3, 2)),
    GameRecord(("c", "a"), (2, 1)),
    GameRecord(("d", "b", "a"), (1, 2, 3)),
    GameRecord(("a", "b", "c", "d"), (4, 3, 2, 1)),
]


def test_rows_hold_counts_and_ratings():
    st = compute_standings(RECORDS, n_boot=40, seed=5)
    boot = bootstrap_bradley_terry(RECORDS, n_boot=40, seed=5)
    pl = fit_plackett_luce(RECORDS)
    rows = {r.name: r for r in st.rows}
    assert [r.name for r in st.rows] == sorted(rows, key=lambda n: -rows[n].elo)
    a = rows["a"]
    assert a.games == 5
    assert a.first_places == 2
    assert a.average_rank == pytest.approx((1 + 2 + 1 + 3 + 4) / 5)
    # a's pairs: 3 + 1 (beats d in game 2) + 1 + 0 + 0 = 5 points from 3+3+1+2+3 = 12
    assert a.points_percent == pytest.approx(100 * 5 / 12)
    assert rows["b"].first_places == 1 and rows["c"].first_places == 1
    for name, row in rows.items():
        err = boot.error(name)
        assert row.elo == pytest.approx(boot.elo[boot.entrants.index(name)])
        assert (row.minus, row.plus) == pytest.approx((err.minus, err.plus))
        assert row.pl_elo == pytest.approx(pl.rating(name))


def test_crosstable_and_los():
    st = compute_standings(RECORDS, n_boot=40, seed=5)
    cross = {(h.player, h.opponent): (h.score, h.games) for h in st.crosstable}
    assert cross[("a", "b")] == (1.0, 4)  # a ahead of b in game 1, behind in 2, 4 and 5
    assert cross[("b", "a")] == (3.0, 4)
    assert cross[("b", "c")] == (1.5, 3)  # b ahead in game 1, level in 2, behind in 5
    assert ("a", "a") not in cross
    assert len(st.crosstable) == 12
    names = [r.name for r in st.rows]
    for i in range(len(names)):
        for j in range(len(names)):
            assert st.los[i][j] + st.los[j][i] == pytest.approx(1.0)


def test_as_dict_round_trips_through_json():
    st = compute_standings(RECORDS, n_boot=10)
    data = json.loads(json.dumps(st.as_dict()))
    assert data["rows"][0]["name"] == st.rows[0].name
    assert data["crosstable"]["a"]["b"] == {"score": 1.0, "games": 4}
    assert set(data["los"]) == {"a", "b", "c", "d"}
