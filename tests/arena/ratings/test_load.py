"""load_results: format detection, encodings, the arena's CSV export, and the fast JSON Lines
path (same arrays as the careful one, errors still name the line)."""

import json

import numpy as np
import pytest

from arena.ratings import GameRecord, ResultsFileError, compute_standings, read_jsonl, read_pgn
from arena.ratings import _load
from arena.ratings._encode import encode
from arena.ratings._load import load_results

GAMES = [{"players": ["ann", "bob", "cid"], "ranks": [1, 2, 3], "block": "d1"},
         {"players": ["bob", "cid", "ann"], "ranks": [1, 1, 3], "block": "d1"},
         {"players": ["cid", "ann"], "ranks": [2, 1]},
         {"players": ["ann", "dan"], "ranks": [1, 1], "block": None}]


def jsonl(games):
    return "".join(json.dumps(g) + "\n" for g in games)


def same(a, b):
    assert a.names == b.names and a.n_games == b.n_games and a.n_blocks == b.n_blocks
    for x, y in zip(a.groups, b.groups):
        assert x.k == y.k and np.array_equal(x.game, y.game) and np.array_equal(x.players, y.players)
        assert np.array_equal(x.ranks, y.ranks)
    assert np.array_equal(a.game_block, b.game_block) and np.array_equal(a.pair_score, b.pair_score)


@pytest.mark.parametrize("chunk", [1, 2, 3, 1 << 16])
def test_fast_jsonl_gives_the_arrays_of_the_records(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(_load, "CHUNK", chunk)
    path = tmp_path / "g.jsonl"
    path.write_text("\n" + jsonl(GAMES[:2]) + "\n   \n" + jsonl(GAMES[2:]))
    same(load_results(path), encode(read_jsonl(path)))


def test_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + jsonl(GAMES).encode())
    assert read_jsonl(path)[0].players == ("ann", "bob", "cid")
    assert load_results(path).names == ("ann", "bob", "cid", "dan")


@pytest.mark.parametrize("chunk", [2, 1 << 16])
@pytest.mark.parametrize(("line", "problem"), [
    ('{"players": ["a", "b"], "ranks": [1, 2]} {"x": 1}', "not valid JSON (Extra data)"),
    ('[1, 2]', "expected an object"),
    ('{"players": ["a", "b"], "ranks": [1, true]}', "rank True is not an integer >= 1 (1 = best)"),
    ('{"players": ["a", "b"], "ranks": [1, 2.0]}', "rank 2.0 is not an integer >= 1 (1 = best)"),
    ('{"players": ["a", "b"], "ranks": [1, 9223372036854775808]}',
     "rank 9223372036854775808 is beyond 64 bits (at most 9223372036854775807)"),
    ('{"players": ["a", "a"], "ranks": [1, 2]}', "player 'a' is seated twice in one game"),
    ('{"players": ["a", ""], "ranks": [1, 2]}', "player '' is not a non-empty string"),
    ('{"players": ["a", "b"], "ranks": [1, 2], "block": 7}', "block 7 is not a string or null"),
    ('{"players": ["a", "b"]}', 'missing "ranks"'),
])
def test_errors_name_the_line_on_the_fast_path(tmp_path, monkeypatch, chunk, line, problem):
    monkeypatch.setattr(_load, "CHUNK", chunk)
    path = tmp_path / "bad.jsonl"
    path.write_text(jsonl(GAMES[:3]) + line + "\n" + jsonl(GAMES[3:]))
    with pytest.raises(ResultsFileError) as info:
        load_results(path)
    assert info.value.line == 4 and info.value.problem.startswith(problem)


def test_not_utf8_jsonl_names_the_line(tmp_path):
    path = tmp_path / "l1.jsonl"
    path.write_bytes(jsonl(GAMES[:1]).encode() + '{"players": ["J\xe9r\xf4me", "b"], "ranks": [1, 2]}\n'.encode("latin-1"))
    with pytest.raises(ResultsFileError, match=r"l1.jsonl:2: not UTF-8 text"):
        load_results(path)


def test_latin1_pgn_reads_the_names(tmp_path):
    path = tmp_path / "old.pgn"
    path.write_bytes('[White "J\xe9r\xf4me"]\n[Black "Ren\xe9"]\n[Result "1-0"]\n\n1. e4 1-0\n'.encode("latin-1"))
    assert read_pgn(path) == [GameRecord(("Jérôme", "René"), (1, 2))]
    assert load_results(path).names == ("Jérôme", "René")


@pytest.mark.parametrize(("text", "kind"), [
    ('{"players": ["a", "b"], "ranks": [1, 2]}\n', "jsonl"),
    ('\n[White "a"]\n[Black "b"]\n[Result "0-1"]\n\n0-1\n', "pgn"),
    ("key,block,seed,seat,bot,rank,score,reason,faults\nk1,d1,5,0,a,2,3,normal,0\nk1,d1,5,1,b,1,9,normal,0\n", "csv"),
])
def test_format_comes_from_the_content_when_the_extension_says_nothing(tmp_path, text, kind):
    path = tmp_path / "results.txt"
    path.write_text(text)
    enc = load_results(path)
    assert enc.names == ("a", "b") and enc.n_games == 1
    assert _load.detect_format(path, text.encode()) == kind


def test_binary_and_unknown_content_are_refused(tmp_path):
    binary = tmp_path / "x.jsonl"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00")
    with pytest.raises(ResultsFileError, match="x.jsonl:1: a binary file, not PGN, JSON Lines or CSV results"):
        load_results(binary)
    other = tmp_path / "notes"
    other.write_text("hello\n")
    with pytest.raises(ResultsFileError, match="cannot tell the format"):
        load_results(other)
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n")
    with pytest.raises(ResultsFileError, match=r"e.jsonl:1: no rated games found \(read as jsonl\)"):
        load_results(empty)


def test_arena_csv_export_rates_like_the_games(tmp_path):
    rows = ["key,block,seed,seat,bot,rank,score,reason,faults"]
    records = []
    for g, rec in enumerate([GameRecord(("a", "b", "c"), (1, 2, 3), "d1"), GameRecord(("b", "c", "a"), (1, 1, 3), "d1"),
                             GameRecord(("c", "a", "b"), (1, 2, 3), "d2")]):
        records.append(rec)
        rows += [f"g{g},{rec.block},9,{s},{p},{r},0,normal,0" for s, (p, r) in enumerate(zip(rec.players, rec.ranks))]
    path = tmp_path / "export.csv"
    path.write_text("\n".join(rows) + "\n")
    assert compute_standings(load_results(path)) == compute_standings(records)
    path.write_text("key,block,seed\n")
    with pytest.raises(ResultsFileError, match="expected the arena's CSV header"):
        load_results(path)
