import io

import pytest

from arena.ratings import (
    GameRecord,
    ResultsFileError,
    fit_bradley_terry,
    read_jsonl,
    read_pgn,
    write_pgn,
)

CUTECHESS = """\
[Event "?"]
[Site "?"]
[Date "2026.11.29"]
[Round "1"]
[White "Anne \\"Toothless\\" Bonny"]
[Black "Blackbeard"]
[Result "1-0"]
[PlyCount "5"]

1. e4 {+0.30/12 0.5s} e5 {-0.25/11 0.4s
[this bracket is inside a comment] still the comment} 2. Nf3 ; rest of line [x]
Nc6 {book} 3. Bb5 {White wins on adjudication} 1-0

[Event "?"]
[White "Blackbeard"]
[Black "Calico Jack"]
[Result "*"]

1. d4 *
[Event "?"]
[White "Calico Jack"]
[Black "Anne \\"Toothless\\" Bonny"]
[Result "1/2-1/2"]

1. c4 c5 1/2-1/2

[Event "?"]
[White "Calico Jack"]
[Black "Blackbeard"]
[Result "0-1"]
"""


def test_read_pgn_cutechess_style(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(CUTECHESS)
    anne = 'Anne "Toothless" Bonny'
    assert read_pgn(path) == [
        GameRecord((anne, "Blackbeard"), (1, 2)),
        GameRecord(("Calico Jack", anne), (1, 1)),
        GameRecord(("Calico Jack", "Blackbeard"), (2, 1)),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[White "a"]\n[Result "1-0"]\n\n1-0\n', '1: game has no "Black" tag'),
        ('[White "a"]\n[Black "b"]\n[Result "2-0"]\n\n1-0\n', '1: Result "2-0" is not one of "1-0", "0-1", "1/2-1/2", "*"'),
        ('[White "a"]\n[Black "b"\n[Result "1-0"]\n', '2: not a PGN tag pair: [Black "b"'),
        ('1. e4 e5 1-0\n', "1: move text before any tag pair"),
        ('[White "a"]\n[Black "a"]\n[Result "1-0"]\n', "1: player 'a' is seated twice in one game"),
        ('\n\n[White "a"]\n[Result "1-0"]\n\n1-0\n[White "b"]\n', '3: game has no "Black" tag'),
    ],
)
def test_read_pgn_errors_name_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.pgn"
    path.write_text(text)
    with pytest.raises(ResultsFileError) as info:
        read_pgn(path)
    assert str(info.value) == f"{path}:{message}"
    assert isinstance(info.value, ValueError)
    assert info.value.path == str(path)


def test_read_jsonl(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text(
        '{"players": ["a", "b", "c"], "ranks": [2, 1, 3], "game_id": 7}\n'
        "\n"
        '{"players": ["c", "a"], "ranks": [1, 1], "block": "deal-3"}\n'
        '{"players": ["c", "a"], "ranks": [1, 2], "block": null}\n'
    )
    assert read_jsonl(path) == [
        GameRecord(("a", "b", "c"), (2, 1, 3)),
        GameRecord(("c", "a"), (1, 1), "deal-3"),
        GameRecord(("c", "a"), (1, 2)),
    ]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"players": ["a", "b", "c", "d"], "ranks": [1, 2, 3]}', '"ranks" has 3 entries but "players" has 4'),
        ('{"players": ["a", "b"], "ranks": [1, 2]', "not valid JSON (Expecting ',' delimiter)"),
        ('[["a", "b"], [1, 2]]', 'expected an object {"players": [...], "ranks": [...]}, got list'),
        ('{"players": ["a", "b"]}', 'missing "ranks"'),
        ('{"players": "ab", "ranks": [1, 2]}', '"players" is not a list'),
        ('{"players": ["a", "b"], "ranks": [1, 0]}', "rank 0 is not an integer >= 1 (1 = best)"),
        ('{"players": ["a", 3], "ranks": [1, 2]}', "player 3 is not a non-empty string"),
        ('{"players": ["a", "b"], "ranks": [1, 2], "block": 4}', "block 4 is not a string or null"),
    ],
)
def test_read_jsonl_errors_name_file_and_line(tmp_path, line, problem):
    path = tmp_path / "results.jsonl"
    good = '{"players": ["a", "b"], "ranks": [1, 2]}\n'
    path.write_text(good * 16 + line + "\n" + good)
    with pytest.raises(ResultsFileError) as info:
        read_jsonl(path)
    assert str(info.value) == f"{path}:17: {problem}"
    assert (info.value.line, info.value.problem) == (17, problem)


def test_write_pgn_pairwise_decomposition_round_trips(tmp_path):
    records = [
        GameRecord(("a", "b", "c", "d"), (2, 1, 2, 4)),
        GameRecord(("d", "c", "b", "a"), (1, 2, 3, 4)),
        GameRecord(('q"uote', "a"), (1, 1)),
        GameRecord(("c", "b", "a"), (3, 1, 2)),
    ]
    path = tmp_path / "pairs.pgn"
    assert write_pgn(records, path) == 6 + 6 + 1 + 3
    pairs = read_pgn(path)
    assert len(pairs) == 16
    assert pairs[:3] == [
        GameRecord(("a", "b"), (2, 1)),
        GameRecord(("a", "c"), (1, 1)),
        GameRecord(("a", "d"), (1, 2)),
    ]
    assert fit_bradley_terry(pairs).elo == pytest.approx(fit_bradley_terry(records).elo, abs=1e-9)


def test_write_pgn_to_a_stream():
    out = io.StringIO()
    write_pgn([GameRecord(("x", "y"), (2, 1))], out)
    assert out.getvalue() == (
        '[Event "pirate-arena"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1.1"]\n'
        '[White "x"]\n[Black "y"]\n[Result "0-1"]\n\n0-1\n\n'
    )
