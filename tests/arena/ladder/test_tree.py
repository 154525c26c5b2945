"""Walking and removing a submitted folder whatever a build left: deeper than Python's
recursion limit, paths longer than PATH_MAX, more entries than any cap (real folders)."""

import os
import shutil
from pathlib import Path

import pytest

from arena.ladder._tree import measure, remove_tree


def nest(top: Path, levels: int, name: str = "d") -> None:
    """``levels`` nested folders below ``top``, made by descriptor (no long path is built)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir(name, dir_fd=fd)
            below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
            os.close(fd)
            fd = below
    finally:
        os.close(fd)


def test_a_tree_deeper_than_the_recursion_limit_is_removed(tmp_path):
    (tmp_path / "bot").mkdir()
    nest(tmp_path / "bot", 1500)
    try:
        # What the ladder used to do: recursion past Python's limit, or, where the process may
        # open fewer files than the tree is deep (1,024 for a normal user), that limit first.
        with pytest.raises((RecursionError, OSError)):
            shutil.rmtree(tmp_path / "bot")
    finally:
        remove_tree(tmp_path / "bot")  # never left for pytest's own (recursive) cleanup
    assert list(tmp_path.iterdir()) == []


def test_paths_longer_than_path_max_are_removed(tmp_path):
    (tmp_path / "bot").mkdir()
    nest(tmp_path / "bot", 40, "x" * 200)  # 8 KB of path, twice PATH_MAX
    remove_tree(tmp_path / "bot")
    assert list(tmp_path.iterdir()) == []


def test_removing_what_is_not_there_or_a_file(tmp_path):
    remove_tree(tmp_path / "missing")
    (tmp_path / "file").write_text("x")
    remove_tree(tmp_path / "file")
    assert list(tmp_path.iterdir()) == []


def test_measure_counts_and_stops_at_the_first_cap(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f").write_bytes(b"x" * 100)
    (tmp_path / "g").write_bytes(b"y" * 10)
    os.symlink("/etc", tmp_path / "link")  # not followed
    size = measure(tmp_path, max_depth=3, max_entries=10, max_bytes=1000)
    assert (size.entries, size.bytes, size.depth, size.over) == (5, 110, 3, None)
    assert measure(tmp_path, max_depth=2, max_entries=10, max_bytes=1000).over == \
        "entries more than 2 levels deep (the limit)"
    assert measure(tmp_path, max_depth=3, max_entries=4, max_bytes=1000).over == \
        "more than 4 files and folders (the limit)"
    assert measure(tmp_path, max_depth=3, max_entries=10, max_bytes=50).over == "more than 50 bytes (the limit)"


def test_measure_of_a_deep_tree_stops_at_the_depth_cap(tmp_path):
    nest(tmp_path, 1500)
    try:
        size = measure(tmp_path, max_depth=64, max_entries=10**6, max_bytes=10**9)
    finally:
        remove_tree(tmp_path / "d")
    assert size.over == "entries more than 64 levels deep (the limit)" and size.entries <= 2 * 65
