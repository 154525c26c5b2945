"""Every number of a tournament file has a range (arena/tournament/_ranges.py): each key is checked at and
beyond both ends, and for non-integers, with one error naming the file, the key and the range."""

from pathlib import Path

import pytest

from arena.tournament._config import ConfigError, config_from_dict
from arena.tournament._ranges import RANGES

BASE = {"game": "dead-mans-draw", "entrants": [{"name": f"r{i}", "command": "python -m bots.random"}
                                               for i in range(8)]}

#: (where the key lives, its name in messages, the RANGES entry)
KEYS = [
    ((), "players", "players"),
    ((), "rounds", "rounds"),
    ((), "seed", "seed"),
    ((), "max_tables", "max_tables"),
    ((), "concurrency", "concurrency"),
    ((), "workers", "workers"),
    (("time",), "time.move_ms", "move_ms"),
    (("time",), "time.reserve_ms", "reserve_ms"),
    (("time",), "time.startup_ms", "startup_ms"),
    (("time",), "time.margin_ms", "margin_ms"),
    (("faults",), "faults.max_substitutions", "max_substitutions"),
    (("faults",), "faults.withdraw_after", "withdraw_after"),
]


def config_with(table: tuple[str, ...], name: str, value):
    data = dict(BASE)
    if table:
        data[table[0]] = {name.split(".")[-1]: value}
    else:
        data[name] = value
    if name == "players" and value == 8:
        data["options"] = {"party": True}  # the game narrows the range: 5-8 need the party option
    return config_from_dict(data, Path("t.toml"))


def _value(config, name):
    values = {"players": config.schedule.players, "rounds": config.schedule.rounds,
              "seed": config.schedule.seed, "max_tables": config.schedule.max_tables,
              "concurrency": config.concurrency, "workers": config.workers, "time.move_ms": config.settings.time_control.move_ms,
              "time.reserve_ms": config.settings.time_control.reserve_ms,
              "time.startup_ms": config.settings.time_control.startup_ms,
              "time.margin_ms": config.settings.time_control.margin_ms,
              "faults.max_substitutions": config.settings.max_substitutions,
              "faults.withdraw_after": config.withdraw_after}
    return values[name]


def test_every_ranged_key_is_in_the_table():
    assert sorted(entry for _, _, entry in KEYS) == sorted(set(RANGES) - {"games_per"})


@pytest.mark.parametrize("table,name,entry", KEYS)
def test_both_ends_of_a_range_are_accepted(table, name, entry):
    bounds = RANGES[entry]
    for value in (bounds.low, bounds.high):
        config = config_with(table, name, value)
        expected = value if not (name == "concurrency" and value == 0) else _value(config, name)
        assert _value(config, name) == expected


@pytest.mark.parametrize("table,name,entry", KEYS)
@pytest.mark.parametrize("bad", ["below", "above", "text", "float", "bool"])
def test_a_value_outside_its_range_is_one_error_naming_file_key_and_range(table, name, entry, bad):
    bounds = RANGES[entry]
    value, shown = {"below": (bounds.low - 1, bounds.low - 1), "above": (bounds.high + 1, bounds.high + 1),
                    "text": ("fast", "'fast'"), "float": (1.5, "1.5"), "bool": (True, "True")}[bad]
    with pytest.raises(ConfigError) as error:
        config_with(table, name, value)
    assert str(error.value) == f"t.toml: key {name!r} must be an integer in {bounds}, got {shown}"


def test_huge_numbers_are_refused_before_anything_is_scheduled_or_sent():
    with pytest.raises(ConfigError, match=r"'rounds' must be an integer in 1..1000000, got 9223372036854775807"):
        config_with((), "rounds", 2**63 - 1)
    with pytest.raises(ConfigError, match=r"'time.move_ms' must be an integer in 1..86400000"):
        config_with(("time",), "time.move_ms", 2**63 - 1)


def test_the_reference_file_documents_every_range():
    text = (Path(__file__).parents[2] / "examples" / "tournament-reference.toml").read_text()
    for _, name, entry in KEYS:
        key = name.split(".")[-1]
        line = next(line for line in text.splitlines() if line.startswith(f"{key} "))
        assert str(RANGES[entry]) in line, line
