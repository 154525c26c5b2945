"""The engine interface's shared helpers: the strict comparison every legality check uses."""

import pytest

from engines import is_listed, same_value


@pytest.mark.parametrize("a,b", [
    (7, 7), ("x", "x"), (None, None), (True, True), ([], []), ({}, {}),
    (["move", 7], ["move", 7]), ([[1, "A"], {"k": [2]}], [[1, "A"], {"k": [2]}]),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
])
def test_same_value_accepts_equal_values_of_equal_types(a, b):
    assert same_value(a, b) and same_value(b, a)


@pytest.mark.parametrize("a,b", [
    (7, 7.0), (1, True), (0, False), ("7", 7), (b"x", "x"), (None, 0), (None, []), ([], {}),
    (["move", 7], ["move", 7.0]), (["move", 7], ("move", 7)), (["move", 7], ["move", [7]]),
    ([1, "A"], [True, "A"]), ([[1]], [[1.0]]), ({"k": 1}, {"k": True}), ({1: "x"}, {True: "x"}),
    ({1: "x"}, {1.0: "x"}), ([1, 2], [1, 2, 2]), ({"a": 1}, {"a": 1, "b": 2}), (2**64, 2**64 + 1),
])
def test_same_value_is_strict_on_type_at_every_depth(a, b):
    assert not same_value(a, b) and not same_value(b, a)


def test_is_listed_never_uses_plain_equality():
    legal = [["move", 7], ["end"]]
    assert is_listed(["move", 7], legal) and is_listed(["end"], legal)
    assert not is_listed(["move", 7.0], legal)
    assert not is_listed(["move", True], [["move", 1]])
    assert not is_listed(1, [True]) and not is_listed(True, [1])
