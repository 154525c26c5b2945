"""A descriptor's data pieces (``engines/_pieces.py`` ``FILES``): a file in the game's folder,
named by the descriptor, asked for by path, never imported."""

from pathlib import Path

import pytest

from engines import Pieces, game_package, get_game


def test_a_data_piece_is_the_file_its_descriptor_names_in_the_games_folder():
    folder = Path(game_package("karibik").__file__).parent
    assert get_game("karibik").pieces.file("chance_baseline", "karibik") == folder / "chance_baseline.json"
    assert Pieces(chance_baseline="data/b.json").file("chance_baseline", "karibik") == folder / "data" / "b.json"


@pytest.mark.parametrize("name", ["/etc/passwd", "../engines/x.json", "", 3])
def test_a_data_piece_outside_the_games_folder_is_refused(name):
    with pytest.raises(ValueError, match=r"piece chance_baseline=.* must be the name of a file in the game's folder"):
        Pieces(chance_baseline=name)


def test_a_file_is_not_imported_nor_a_module_read_as_a_file():
    with pytest.raises(ValueError, match=r"^chance_baseline is a file, not a module: ask for Pieces.file"):
        Pieces(chance_baseline="b.json").load("chance_baseline", "karibik")
    with pytest.raises(ValueError, match=r"^codec is a module, not a file: ask for Pieces.load"):
        get_game("karibik").pieces.file("codec", "karibik")
