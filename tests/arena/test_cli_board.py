"""arena board: the Karibik map in the terminal and as SVG, for a new game or a replay step."""

import xml.etree.ElementTree as ElementTree

from .test_tournament import arena


def test_board_draws_the_map_and_writes_svg(tmp_path):
    svg = tmp_path / "board.svg"
    out = arena("board", "karibik", "--seed", "3", "--players", "3", "--svg", str(svg)).stdout
    assert "Havana" in out and "Arriba" in out and "seat 2 (green): 0" in out
    assert ElementTree.parse(svg).getroot().tag.endswith("svg")


def test_board_of_a_replay_step(tmp_path):
    replay = tmp_path / "game.json"
    arena("match", "karibik", "python -m bots.random", "python -m bots.random", "--seed", "4",
          "--replay", str(replay))
    first = arena("board", "karibik", "--replay", str(replay), "--step", "0").stdout
    last = arena("board", "karibik", "--replay", str(replay)).stdout
    assert "Round 1/30, phase bribe" in first and first != last


def test_board_errors_are_one_line():
    result = arena("board", "dead-mans-draw", check=False)
    assert result.returncode == 2
    assert result.stderr == "error: dead-mans-draw has no board to draw; games with one: ['karibik']\n"
