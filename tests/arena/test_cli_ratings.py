"""The rating commands: rate (PGN, JSON Lines), standings formats and anchor, sprt."""

import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli._app import app

from .test_cli_interrupt import interrupt
from .test_tournament import arena, play, write_tournament


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


def test_standings_formats_anchor_and_sprt(db):
    csv = run_cli("standings", db, "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("rank,name,elo,minus,plus") and len(csv) == 3
    anchored = json.loads(run_cli("standings", db, "--format", "json", "--anchor", "r0=1500").stdout)
    assert {row["name"]: row["elo"] for row in anchored["rows"]}["r0"] == 1500
    assert "adaptive" not in anchored  # the field of an adaptive tournament only
    result = run_cli("sprt", db, "r0", "r1", "--elo0", "0", "--elo1", "50", "--format", "json")
    assert result.exit_code in (0, 1, 3)  # H1, H0, undecided
    sprt = json.loads(result.stdout)
    assert sprt["decision"] in {"accept_h0", "accept_h1", "continue"}
    assert sprt["model"] == "pentanomial"  # duplicate deals: pairs of games with swapped seats
    assert sprt["lower"] < 0 < sprt["upper"]
    missing = run_cli("sprt", db, "r0", "nobody")
    assert missing.exit_code == 2 and "'nobody' played no game here" in missing.stderr


# -- one error line, exit code 2, for every bad argument (in-process) -------------------------

@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A stored two-bot tournament (duplicate pairs), shared by the tests below."""
    folder = tmp_path_factory.mktemp("ratings-db")
    play(write_tournament(folder, rounds=3, entrants=2))
    return folder / "t.db"


@pytest.fixture(scope="module")
def unfinished(db, tmp_path_factory):
    """The same database with one game of a duplicate pair removed."""
    path = tmp_path_factory.mktemp("unfinished") / "u.db"
    shutil.copy(db, path)
    with sqlite3.connect(path) as con:
        con.execute("DELETE FROM games WHERE key = (SELECT MIN(key) FROM games)")
    con.close()
    return path


def run_cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="arena", env={"COLUMNS": "120"})


def one_error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line[len("error: "):]


GOOD_JSONL = '{"players": ["a", "b"], "ranks": [1, 2]}\n{"players": ["b", "a"], "ranks": [1, 2]}\n'

BAD = [
    (["standings", "{db}", "--anchor", "nosuch=0"], "--anchor 'nosuch' played no game here; entrants are 'r0', 'r1'"),
    (["standings", "{db}", "--anchor", "r0=nan"], "--anchor must look like NAME=ELO with a finite ELO, got 'r0=nan'"),
    (["standings", "{db}", "--anchor", "r0=inf"], "--anchor must look like NAME=ELO with a finite ELO, got 'r0=inf'"),
    (["standings", "{db}", "--anchor", "r0"], "--anchor must look like NAME=ELO with a finite ELO, got 'r0'"),
    (["standings", "{db}", "--bootstrap", "0"], "--bootstrap must be a number of replicates from 1 to 100000, got 0"),
    (["standings", "{db}", "--bootstrap", "-5"], "--bootstrap must be a number of replicates from 1 to 100000, got -5"),
    (["standings", "{db}", "--bootstrap", str(10**12)],
     f"--bootstrap must be a number of replicates from 1 to 100000, got {10**12}"),
    (["rate", "{tmp}/good.jsonl", "--format", "xml"],
     "invalid value for '--format' / '-f': 'xml' is not one of 'table', 'json', 'csv' (see 'arena rate --help')"),
    (["rate", "{tmp}/good.jsonl", "--bootstrap", "0"],
     "--bootstrap must be a number of replicates from 1 to 100000, got 0"),
    (["rate", "{tmp}/good.jsonl", "--anchor", "a=nan"], "--anchor must look like NAME=ELO with a finite ELO, got 'a=nan'"),
    (["rate", "{tmp}/good.jsonl", "--anchor", "zed=1"], "--anchor 'zed' played no game here; entrants are 'a', 'b'"),
    (["rate", "{tmp}/missing.pgn"], "{tmp}/missing.pgn: No such file or directory"),
    (["rate", "{tmp}"], "{tmp} is a folder: give one results file (PGN, JSON Lines or the arena's CSV export)"),
    (["rate", "{tmp}/binary.jsonl"], "{tmp}/binary.jsonl:1: a binary file, not PGN, JSON Lines or CSV results"),
    (["rate", "{tmp}/big.jsonl"], "{tmp}/big.jsonl:2: rank 18446744073709551616 is beyond 64 bits (at most 9223372036854775807)"),
    (["rate", "{tmp}/notes.txt"], "{tmp}/notes.txt:1: cannot tell the format: not a PGN tag, a JSON object or the arena's "
                                  "CSV header; name the file *.pgn, *.jsonl or *.csv, or pass --input"),
    (["rate", "{tmp}/good.jsonl", "--input", "xml"],
     "invalid value for '--input': 'xml' is not one of 'auto', 'pgn', 'jsonl', 'csv' (see 'arena rate --help')"),
    (["rate", "{tmp}/good.jsonl", "--input", "csv"], "{tmp}/good.jsonl:1: expected the arena's CSV header "
                                                     "key,block,seed,seat,bot,rank,score,reason,faults"),
    (["sprt", "{db}", "r0", "r1", "--alpha", "0"], "--alpha must be in (0, 1), got 0.0"),
    (["sprt", "{db}", "r0", "r1", "--alpha", "2"], "--alpha must be in (0, 1), got 2.0"),
    (["sprt", "{db}", "r0", "r1", "--beta", "-1"], "--beta must be in (0, 1), got -1.0"),
    (["sprt", "{db}", "r0", "r1", "--elo0", "5", "--elo1", "1"], "--elo0 must be below --elo1, got --elo0=5.0, --elo1=1.0"),
    (["sprt", "{db}", "r0", "r1", "--alpha", "0.6", "--beta", "0.4"], "--alpha + --beta must be below 1, got 0.6 + 0.4"),
    (["sprt", "{db}", "r0", "r1", "--model", "bayes"],
     "invalid value for '--model': 'bayes' is not one of 'logistic', 'normalized' (see 'arena sprt --help')"),
    (["sprt", "{db}", "r0", "r1", "--format", "xml"],
     "invalid value for '--format' / '-f': 'xml' is not one of 'table', 'json' (see 'arena sprt --help')"),
    (["sprt", "{db}", "r0", "nobody"],
     "{db}: no games between 'r0' and 'nobody' ('nobody' played no game here; entrants: r0, r1)"),
    (["sprt", "{db}", "r0", "r0"], "{db}: both entrants are 'r0'; name two different ones"),
    (["sprt", "{unfinished}", "r0", "r1"], "{unfinished}: block "),
    (["compare", "{db}", "r1", "r1"], "{db}: both entrants are 'r1'; name two different ones"),
    (["compare", "{db}", "zed", "r1"], "{db}: no games between 'zed' and 'r1' ('zed' played no game here; entrants: r0, r1)"),
    (["compare", "{db}", "r0", "r1", "--format", "csv"],
     "invalid value for '--format' / '-f': 'csv' is not one of 'table', 'json' (see 'arena compare --help')"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_arguments_are_one_error_line(args, message, db, unfinished, tmp_path):
    (tmp_path / "good.jsonl").write_text(GOOD_JSONL)
    (tmp_path / "binary.jsonl").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 8)
    (tmp_path / "big.jsonl").write_text(GOOD_JSONL.splitlines()[0] + '\n{"players": ["a", "b"], "ranks": [1, 18446744073709551616]}\n')
    (tmp_path / "notes.txt").write_text("results of Tuesday\n")
    result = run_cli(*(a.format(db=db, tmp=tmp_path, unfinished=unfinished) for a in args))
    line = one_error_line(result)
    message = message.format(db=db, unfinished=unfinished, tmp=tmp_path)
    assert line.startswith(message) if message.endswith(" ") else line == message


def test_compare_prints_the_cutechess_line_and_pairs(db):
    result = run_cli("compare", db, "r0", "r1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "r0 vs r1: 6 shared games"
    assert re.fullmatch(r"Elo difference: -?\d+\.\d \+/- \d+\.\d, LOS: \d+\.\d % \(chance-corrected; duplicate "
                        r"blocks \(all rotations of one deal\) as the unit\)", lines[1])
    assert re.fullmatch(r"independent observations: 3 blocks, worth \d+ independent games", lines[3])
    assert re.fullmatch(r"raw: Elo difference: .* per game \(baseline v2 sha256:[0-9a-f]{12}\), [01]\.\d\d of it "
                        r"taken out \(fitted on these blocks\)", lines[4])
    assert lines[5].startswith("pentanomial (3 pairs): LL ")
    data = json.loads(run_cli("compare", db, "r0", "r1", "--format", "json").stdout)
    assert data["games"] == 6 and sum(data["pentanomial"]) == 3 and lines[1].startswith(data["headline"])
    assert data["corrected"] and data["unit"] == "block" and data["observations"] == 3
    # the old raw figures, one option away; and the naive per-game unit
    raw = json.loads(run_cli("compare", db, "r0", "r1", "--format", "json", "--raw").stdout)
    assert not raw["corrected"] and raw["raw"] is None and raw["elo"] == data["raw"]["elo"]
    assert raw["error"] == data["raw"]["error"] and raw["score"] == data["raw"]["score"]
    naive = json.loads(run_cli("compare", db, "r0", "r1", "--format", "json", "--raw", "--per-game").stdout)
    assert naive["unit"] == "game" and naive["observations"] == 6 and naive["elo"] == raw["elo"]
    # the luck is kept in the database: a second run reads it, and says the same
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM luck").fetchone()[0] == 6
    con.close()
    assert run_cli("compare", db, "r0", "r1").stdout == result.stdout


def test_standings_corrected_shows_raw_and_corrected_points(db):
    result = run_cli("standings", db, "--corrected")
    assert result.exit_code == 0, result.output
    table = result.stdout.split("\n\n")[1].splitlines()
    assert re.fullmatch(r"chance-corrected points \(baseline v2 sha256:[0-9a-f]{12}; duplicate blocks as the unit; "
                        r"95 % intervals; taken: the share of the baseline's luck taken out, fitted on the "
                        r"entrant's blocks\)", table[0])
    assert table[1].split() == ["bot", "raw", "%", "corrected", "%", "mean", "luck", "taken", "blocks"]
    data = json.loads(run_cli("standings", db, "--corrected", "--format", "json").stdout)
    rows = data["corrected"]["rows"]
    assert {row["name"] for row in rows} == {row["name"] for row in data["rows"]}
    for row in rows:
        assert row["raw"] - row["corrected"] == pytest.approx(row["luck"])
        # each row's share of the luck is its own (the rows' lucks no longer sum to 0), and
        # never widens its interval
        assert 0.0 <= row["coefficient"] <= 1.0 and row["corrected_error"] <= row["raw_error"]
        assert row["luck"] == 0.0 if row["coefficient"] == 0.0 else row["luck"] != 0.0
    assert one_error_line(run_cli("standings", db, "--corrected", "--format", "csv")) == (
        "--corrected shows a second table: use --format table or json")


@pytest.fixture(scope="module")
def r0_sweeps(db, tmp_path_factory):
    """The stored tournament with r0 winning every game."""
    path = tmp_path_factory.mktemp("sweep") / "s.db"
    shutil.copy(db, path)
    with sqlite3.connect(path) as con:
        con.execute("""UPDATE games SET ranks = CASE WHEN seats = '["r0", "r1"]' THEN '[1, 2]' ELSE '[2, 1]' END""")
    con.close()
    return path


def test_sprt_exit_code_says_the_verdict(r0_sweeps):
    undecided = run_cli("sprt", r0_sweeps, "r0", "r1", "--elo0", "0", "--elo1", "50")
    assert undecided.exit_code == 3
    assert undecided.stdout == ("no decision yet: play more games (logistic Elo [0, 50], alpha 0.05, beta 0.05); "
                                "LLR 0.40 in (-2.94, 2.94); 3 independent observations (duplicate pairs); "
                                "LL 0, LD 0, WL+DD 0, WD 0, WW 3\n")
    # three won pairs reach the bounds of alpha = beta = 0.3 (+-0.85)
    wide = ["--elo0", "0", "--elo1", "200", "--alpha", "0.3", "--beta", "0.3"]
    accepted = run_cli("sprt", r0_sweeps, "r0", "r1", *wide)
    assert accepted.exit_code == 0 and accepted.stdout.startswith("H1 accepted: the Elo difference is at least 200 (")
    rejected = run_cli("sprt", r0_sweeps, "r1", "r0", *wide)
    assert rejected.exit_code == 1 and rejected.stdout.startswith("H0 accepted: the Elo difference is at most 0 (")
    data = json.loads(run_cli("sprt", r0_sweeps, "r0", "r1", "--model", "normalized", "--format", "json").stdout)
    assert data["elo_model"] == "normalized" and data["model"] == "pentanomial" and data["counts"] == [0, 0, 0, 0, 3]


def test_disconnected_groups_are_named_in_a_warning(tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text('{"players": ["a", "b"], "ranks": [1, 2]}\n{"players": ["c", "d"], "ranks": [2, 1]}\n')
    result = run_cli("rate", path, "--format", "json")
    assert result.exit_code == 0
    assert result.stderr == ("warning: the entrants form 2 groups that never played each other (a, b | c, d); "
                             "ratings compare only within a group, and there is no LOS across groups\n")
    data = json.loads(result.stdout)
    assert data["groups"] == [["a", "b"], ["c", "d"]] and data["los"]["a"]["c"] is None


def test_rate_reads_latin1_pgn_and_the_arenas_csv_export(db, tmp_path):
    pgn = tmp_path / "old.pgn"
    pgn.write_bytes('[White "J\xe9r\xf4me"]\n[Black "Ren\xe9"]\n[Result "1-0"]\n\n1-0\n'.encode("latin-1"))
    rows = json.loads(run_cli("rate", pgn, "--format", "json").stdout)["rows"]
    assert [row["name"] for row in rows] == ["J\u00e9r\u00f4me", "Ren\u00e9"]
    export = tmp_path / "export.dat"  # an extension that says nothing: the CSV header does
    export.write_text(run_cli("export", db, "--format", "csv").stdout)
    from_csv = json.loads(run_cli("rate", export, "--format", "json").stdout)
    from_db = json.loads(run_cli("standings", db, "--format", "json").stdout)
    assert from_csv["rows"] == [{**row, "faults": 0} for row in from_db["rows"]]


SPRT_GAUNTLET = 'format = "gauntlet"\ncandidates = ["r0"]\n[sprt]\nelo0 = 0\nelo1 = 200\nalpha = 0.3\nbeta = 0.3\n'


@pytest.fixture(scope="module")
def sprt_gauntlet(tmp_path_factory):
    """A two-bot gauntlet with an [sprt] table, run until the test decided: (its file, the run)."""
    folder = tmp_path_factory.mktemp("sprt-gauntlet")
    path = write_tournament(folder, rounds=200, entrants=2, extra=SPRT_GAUNTLET)
    return path, play(path)


def test_a_gauntlet_with_an_sprt_table_stops_once_it_decides(sprt_gauntlet, tmp_path):
    """Two random bots: the test (wide bounds, +-0.85) decides within some tens of pairs, long
    before the 400 scheduled games (with 40 it once had not decided: the walk to a bound is
    random); a resume plays nothing more (on a copy: the module's other tests read the original)."""
    path, result = sprt_gauntlet
    shutil.copy(path.parent / "t.db", tmp_path / "t.db")
    [line, last] = [x for x in result.stderr.splitlines() if x.startswith("sprt: ")]
    assert line.startswith(("sprt: r0 vs r1: H0 accepted", "sprt: r0 vs r1: H1 accepted"))
    assert "independent observations (duplicate pairs)" in line
    assert last == "sprt: every test has decided; the gauntlet stopped"
    with sqlite3.connect(tmp_path / "t.db") as con:
        stored = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    con.close()
    assert 2 <= stored < 400
    again = play(tmp_path / "t.db", command="resume")
    # the same verdict (the figures may count a pair whose last game was stored after the stop)
    assert line.split(":")[2] in again.stderr and "the gauntlet stopped" in again.stderr
    with sqlite3.connect(tmp_path / "t.db") as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == stored
    con.close()


def test_a_three_player_gauntlet_stops_once_the_candidate_against_the_field_is_decided(tmp_path):
    """Three-player tables of random bots, the candidate against the field: a block of three
    rotations is one observation; the wide test decides long before the 36 scheduled games."""
    extra = SPRT_GAUNTLET.replace("beta = 0.3\n", "beta = 0.3\nfield = true\n")
    path = write_tournament(tmp_path, rounds=4, entrants=4, extra=extra)
    path.write_text(path.read_text().replace("players = 2", "players = 3"))
    result = play(path)
    [line, last] = [x for x in result.stderr.splitlines() if x.startswith("sprt: ")]
    assert line.startswith(("sprt: r0 vs the field: H0 accepted", "sprt: r0 vs the field: H1 accepted"))
    assert "independent observations (duplicate blocks of 3)" in line
    assert last == "sprt: every test has decided; the gauntlet stopped"
    with sqlite3.connect(tmp_path / "t.db") as con:
        stored = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    con.close()
    assert 3 <= stored < 36


def test_compare_and_corrected_standings_work_at_every_table_size(tmp_path):
    """A careless organiser's 5-player Pirate Party: `compare` corrects by default, so the
    baseline must have a value for that table size (it had 2 and 3 players only, and refused)."""
    path = write_tournament(tmp_path, rounds=1, entrants=5)
    path.write_text(path.read_text().replace("players = 2", "players = 5").replace("[options]\n",
                                                                                   "[options]\nparty = true\n"))
    play(path)
    result = run_cli("compare", tmp_path / "t.db", "r0", "r1")
    assert result.exit_code == 0, result.output
    assert "(chance-corrected; duplicate blocks (all rotations of one deal) as the unit)" in result.stdout
    assert re.search(r"mean luck [+-]\d\.\d{4} \+/- \d\.\d{4} per game \(baseline v2 sha256:", result.stdout)
    standings = run_cli("standings", tmp_path / "t.db", "--corrected")
    assert standings.exit_code == 0, standings.output


@pytest.mark.parametrize(("extra", "message"), [
    ("[sprt]\nelo0 = 0\nelo1 = 5\n", '[sprt] is for format = "gauntlet" (one candidate against the field)'),
    (SPRT_GAUNTLET.replace("elo0 = 0", "elo0 = 500"), "[sprt] elo0 must be below elo1, got elo0=500.0, elo1=200.0"),
    (SPRT_GAUNTLET + "colour = 1\n", "[sprt] key 'colour' is unknown; known keys: elo0, elo1, alpha, beta, model, "
     "baseline, baselines, field, correction"),
])
def test_bad_sprt_tables_are_one_error_line(tmp_path, extra, message):
    path = write_tournament(tmp_path, rounds=1, entrants=2, extra=extra)
    result = run_cli("tournament", "run", path, "-q")
    assert one_error_line(result) == f"{path}: {message}"


def test_report_corrected_has_the_chance_corrected_section(db, tmp_path):
    out = tmp_path / "r.html"
    result = run_cli("report", db, "-o", out, "--corrected")
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert '<section id="corrected"><h2>Chance-corrected points</h2>' in page
    assert re.search(r"baseline v2 sha256:[0-9a-f]{12}\) taken out", page)
    # the share of the luck taken out per entrant, as `standings --corrected` shows it
    assert ("<th>bot</th><th>raw points %</th><th>corrected points %</th><th>mean luck</th><th>taken</th>"
            "<th>blocks</th>") in page
    section = page[page.index('<section id="corrected">'):]
    shown = {name: (taken, int(blocks)) for name, taken, blocks in re.findall(
        r"<tr><td>([^<]+)</td>(?:<td>[^<]*</td>){3}<td>(\d\.\d\d)</td><td>(\d+)</td></tr>", section)}
    rows = json.loads(run_cli("standings", db, "--corrected", "--format", "json").stdout)["corrected"]["rows"]
    assert shown == {row["name"]: (f"{row['coefficient']:.2f}", row["blocks"]) for row in rows} and shown
    run_cli("report", db, "-o", out)
    assert 'id="corrected"' not in out.read_text()


# -- issue 43, item 6: SPRT values that cannot be tested, compare on a read-only database, Ctrl-C
# in compare. Real `arena` processes.

def one_error(result) -> str:
    """The message of a process that failed as a user error must: one ``error:`` line, exit 2."""
    assert (result.returncode, result.stdout) == (2, ""), (result.returncode, result.stdout, result.stderr)
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line[len("error: "):]


LOGISTIC_RANGE = "must lie within -2000 .. 2000 logistic Elo (an expected score of 0.00001 .. 0.99999)"
NORMALIZED_RANGE = ("must lie within -347 .. 347 normalized Elo (a t-value of at most 1 per game; the logistic "
                    "model takes larger differences)")


@pytest.mark.parametrize(("options", "message"), [
    (["--elo1", "8000"], f"--elo1 {LOGISTIC_RANGE}, got 8000.0"),
    (["--elo0", "-10000"], f"--elo0 {LOGISTIC_RANGE}, got -10000.0"),
    (["--model", "normalized", "--elo1", "1000"], f"--elo1 {NORMALIZED_RANGE}, got 1000.0"),
    (["--elo0", "20", "--elo1", "10"], "--elo0 must be below --elo1, got --elo0=20.0, --elo1=10.0"),
    (["--alpha", "0"], "--alpha must be in (0, 1), got 0.0"),
    (["--alpha", "0.5", "--beta", "0.5"], "--alpha + --beta must be below 1, got 0.5 + 0.5"),
])
def test_sprt_values_that_cannot_be_tested_are_one_error_line(db, options, message):
    """--elo1 8000 ended in a ZeroDivisionError traceback (the expected score rounds to 1), and
    normalized --elo1 1000 blamed the database ("math domain error")."""
    assert one_error(arena("sprt", str(db), "r0", "r1", *options, check=False)) == message


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_sprt_at_the_edges_of_the_allowed_range_decides(db, model):
    """The widest hypotheses allowed are computed, not refused: normalized +-347 is a t-value
    of sqrt 2 per duplicate pair, where fishtest's iteration has no root ("math domain error")."""
    widest = "2000" if model == "logistic" else "347"
    result = arena("sprt", str(db), "r0", "r1", "--model", model, f"--elo0=-{widest}", "--elo1", widest,
                   "--format", "json", check=False)
    assert result.returncode in (0, 1, 3) and result.stderr == "", result.stderr
    assert math.isfinite(json.loads(result.stdout)["llr"])


@pytest.mark.parametrize(("sprt", "message"), [
    ("elo0 = 0\nelo1 = 10000\n", f"[sprt] elo1 {LOGISTIC_RANGE}, got 10000.0"),
    ('elo0 = 0\nelo1 = 1000\nmodel = "normalized"\n', f"[sprt] elo1 {NORMALIZED_RANGE}, got 1000.0"),
    ("elo0 = 10\nelo1 = 10\n", "[sprt] elo0 must be below elo1, got elo0=10.0, elo1=10.0"),
    ("elo0 = 0\nelo1 = 10\nbeta = 1\n", "[sprt] beta must be in (0, 1), got 1.0"),
])
def test_a_gauntlet_with_untestable_sprt_values_is_refused_before_any_game(tmp_path, sprt, message):
    """[sprt] elo1 = 10000 ended the tournament in a 98-line traceback after games were stored."""
    extra = 'format = "gauntlet"\ncandidates = ["r0"]\n[sprt]\n' + sprt
    path = write_tournament(tmp_path, rounds=1, entrants=2, extra=extra)
    assert one_error(play(path, check=False)) == f"{path}: {message}"
    assert not (tmp_path / "t.db").exists()  # refused at load: nothing ran


def test_resuming_a_database_with_untestable_sprt_values_is_one_error_line(sprt_gauntlet, tmp_path):
    """A database an older arena made from `[sprt] elo1 = 10000` crashed `tournament resume`
    again; now its stored file is refused as a new one is, and its games stay. (A copy of the
    module's SPRT gauntlet: an unfinished one, whose resume would play on.)"""
    path, _ = sprt_gauntlet
    db = tmp_path / "t.db"
    shutil.copy(path.parent / "t.db", db)
    with sqlite3.connect(db) as con:
        config = json.loads(con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
        config["sprt"]["elo1"] = 10000
        con.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(config),))
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    con.close()
    message = one_error(play(db, command="resume", check=False))
    assert message == f"{path}: [sprt] elo1 {LOGISTIC_RANGE}, got 10000.0"
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games >= 2
    con.close()


def _as_nobody() -> tuple[str, ...]:
    """The start of a command line that runs the rest as user nobody where the tests run as
    root, whom permission bits do not stop; nothing otherwise."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot drop to a user the file modes stop")
    return ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@pytest.mark.parametrize("locked", ["file 0444", "folder 0555"])
def test_compare_works_on_a_database_it_cannot_write(db, tmp_path, locked):
    """compare refused a database it could not write (it keeps each game's luck there the
    first time); now it computes the luck in memory, says so on one line, and prints what it
    prints on a database it can write."""
    writable = tmp_path / "w.db"
    shutil.copy(db, writable)
    folder = Path(tempfile.mkdtemp(prefix="arena-compare-"))  # outside pytest's 0700 folder: nobody reaches it
    copy = folder / "t.db"
    try:
        for path in (writable, copy):
            shutil.copy(db, path)
            with sqlite3.connect(path) as con:
                con.execute("DROP TABLE IF EXISTS luck")  # another test may have kept it
            con.close()
        expected = arena("compare", str(writable), "r0", "r1")
        if os.geteuid() == 0:
            for path in (folder, copy):
                os.chown(path, 65534, 65534)
        copy.chmod(0o444 if locked == "file 0444" else 0o644)
        folder.chmod(0o755 if locked == "file 0444" else 0o555)
        before = copy.read_bytes()
        result = subprocess.run([*_as_nobody(), shutil.which("arena"), "compare", str(copy), "r0", "r1"],
                                capture_output=True, text=True, cwd=folder, timeout=300)
        assert (result.returncode, result.stdout) == (0, expected.stdout), result.stderr
        reason = ("the file cannot be written (permission denied)" if locked == "file 0444" else
                  f"its folder {folder} cannot be written (permission denied), and SQLite writes its journal "
                  f"files beside the database")
        assert result.stderr == (f"note: the luck of 6 games was computed but not kept ({copy}: {reason}); "
                                 f"the next compare computes it again\n")
        # nothing written (SQLite's empty -wal and -shm may stay beside a read-only file; standings leaves them too)
        wal = folder / "t.db-wal"
        assert copy.read_bytes() == before and (not wal.exists() or wal.stat().st_size == 0)
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def luck_rows(db: Path) -> int:
    """The games whose luck ``db`` keeps (0 before the table is made)."""
    try:
        con = sqlite3.connect(db)
    except sqlite3.Error:
        return 0
    try:
        return con.execute("SELECT COUNT(*) FROM luck").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        con.close()


def test_ctrl_c_in_compare_keeps_the_luck_computed_so_far(db, tmp_path):
    """Ctrl-C in a first compare of many games printed nothing and kept none of the luck it had
    computed (it stored all of it at the end). Now it stores the luck as it goes, in batches,
    and says how much is kept; the next run goes on from there. Each run is interrupted once
    its first batch is in the database."""
    big = tmp_path / "big.db"
    shutil.copy(db, big)
    with sqlite3.connect(big) as con:  # the 6 games 200 times over, as new games of new deals
        con.execute("DROP TABLE IF EXISTS luck")
        columns = [row[1] for row in con.execute("PRAGMA table_info(games)")]
        keys = [row[0] for row in con.execute("SELECT key FROM games")]
        copied = ", ".join(f"{c} || ?" if c in ("key", "block") else c for c in columns)
        for n in range(1, 200):
            con.execute(f"INSERT INTO games SELECT {copied} FROM games WHERE key IN ({', '.join('?' * len(keys))})",
                        (f"~{n}", f"~{n}", *keys))
    con.close()
    kept = 0
    for _ in range(2):
        result = interrupt(["arena", "compare", str(big), "r0", "r1"], lambda: luck_rows(big) > kept)
        assert (result.returncode, result.stdout) == (130, ""), result.stderr
        match = re.fullmatch(r"interrupted: the luck of (\d+) of 1200 games is kept; run it again to go on\n",
                             result.stderr)
        assert match, result.stderr
        assert kept < int(match[1]) == luck_rows(big) < 1200
        kept = int(match[1])
    with sqlite3.connect(big) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
