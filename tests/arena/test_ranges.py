"""The numeric command-line options share the tournament file's ranges (arena/tournament/_ranges.py): every
out-of-range or non-numeric value is one ``error:`` line naming the option and its range, exit 2."""

import pytest

from arena.tournament._ranges import OPTIONS, RANGES, RangeError, check_number, parse_option

from .test_cli import arena, assert_user_error

RANDOM = "python -m bots.random"

#: every command that takes each option, with the arguments it needs before it
COMMANDS = [
    (("match", "dead-mans-draw", RANDOM, RANDOM), ("--seed", "--move-ms", "--reserve-ms", "--startup-ms", "--margin-ms",
                                                   "--substitutions")),
    (("check-bot", RANDOM), ("--games-per", "--move-ms")),
    (("tournament", "run", "missing.toml"), ("--concurrency", "--workers")),
    (("tournament", "resume", "missing.db"), ("--concurrency", "--workers")),
    (("tournament", "extend", "missing.db"), ("--rounds",)),
]
CASES = [(prefix, option) for prefix, options in COMMANDS for option in options]


def bad_values(option):
    bounds = RANGES[OPTIONS[option]]
    return [(str(bounds.low - 1), str(bounds.low - 1)), (str(bounds.high + 1), str(bounds.high + 1)),
            ("fast", "'fast'"), ("1.5", "'1.5'"), ("", "''"), ("9" * 30, "9" * 30)]


def test_every_option_has_a_range_and_a_command():
    assert set(OPTIONS.values()) <= set(RANGES)
    assert {option for _, options in COMMANDS for option in options} == set(OPTIONS)


@pytest.mark.parametrize("prefix,option", CASES)
def test_a_bad_value_is_one_error_line_naming_the_option_and_its_range(prefix, option):
    bounds = RANGES[OPTIONS[option]]
    for text, shown in bad_values(option):
        assert_user_error(arena(*prefix, f"{option}={text}"),
                          f"{option} must be an integer in {bounds}, got {shown}")


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_both_ends_are_accepted(option):
    bounds = RANGES[OPTIONS[option]]
    assert parse_option(option, str(bounds.low)) == bounds.low
    assert parse_option(option, f" {bounds.high} ") == bounds.high


def test_help_shows_the_ranges():
    assert "0..9223372036854775807" in arena("match", "--help").stdout
    assert "1..10000" in arena("check-bot", "--help").stdout
    assert "0..1024" in arena("tournament", "run", "--help").stdout


@pytest.mark.parametrize("value", [True, 2.0, "3", None])
def test_only_integers_are_numbers(value):
    with pytest.raises(RangeError, match="must be an integer in 1..1000000"):
        check_number("rounds", value)
