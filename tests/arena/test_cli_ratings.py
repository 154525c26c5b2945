"""The rating commands: rate (PGN, JSON Lines), standings formats and anchor, sprt."""

import json

from .test_tournament import arena, write_tournament


def test_rate_jsonl_with_multiplayer_columns(tmp_path):
    path = tmp_path / "games.jsonl"
    games = [{"players": ["ann", "bob", "cid"], "ranks": [1, 2, 3]}] * 6 + \
            [{"players": ["bob", "cid", "ann"], "ranks": [1, 1, 3]}] * 3
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    out = arena("rate", str(path)).stdout.splitlines()
    assert out[0].split() == ["#", "name", "elo", "-", "+", "games", "points", "%", "wins", "avg", "pos",
                              "PL", "elo", "faults"]
    rows = {line.split()[1]: line.split() for line in out[2:]}
    assert rows["ann"][5] == "9" and rows["ann"][7] == "6"  # games, first places
    assert rows["cid"][8] == "2.33"  # average position: (3*6 + 1*3) / 9


def test_rate_pgn_and_json_output(tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text("".join(f'[White "a"]\n[Black "b"]\n[Result "{r}"]\n\n1. e4 {r}\n\n'
                           for r in ["1-0", "1-0", "1-0", "0-1", "*"]))
    data = json.loads(arena("rate", str(pgn), "--format", "json").stdout)
    rows = {row["name"]: row for row in data["rows"]}
    assert rows["a"]["games"] == 4 and rows["a"]["points_percent"] == 75.0
    assert round(rows["a"]["elo"] - rows["b"]["elo"], 1) == 190.8  # 400 log10(3)


def test_rate_bad_file_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"players": ["a", "b"], "ranks": [1, 2]}\n{"players": ["a"], "ranks": [1, 2]}\n')
    result = arena("rate", str(path), check=False)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {path}:2: ") and result.stderr.count("\n") == 1


def test_standings_formats_anchor_and_sprt(tmp_path):
    path = write_tournament(tmp_path, rounds=3, entrants=2)
    arena("tournament", "run", str(path), "-q")
    db = tmp_path / "t.db"
    csv = arena("standings", str(db), "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("rank,name,elo,minus,plus") and len(csv) == 3
    anchored = json.loads(arena("standings", str(db), "--format", "json", "--anchor", "r0=1500").stdout)
    assert {row["name"]: row["elo"] for row in anchored["rows"]}["r0"] == 1500
    sprt = json.loads(arena("sprt", str(db), "r0", "r1", "--elo0", "0", "--elo1", "50").stdout)
    assert sprt["decision"] in {"accept_h0", "accept_h1", "continue"}
    assert sprt["model"] == "pentanomial"  # duplicate deals: pairs of games with swapped seats
    assert sprt["lower"] < 0 < sprt["upper"]
    missing = arena("sprt", str(db), "r0", "nobody", check=False)
    assert missing.returncode == 2 and "no games between 'r0' and 'nobody'" in missing.stderr
