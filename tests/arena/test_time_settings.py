"""Issue 45: each time-control field is declared once (``TIME_SETTINGS``: its tournament-file
key, range, command-line option and help); the tournament file's reader, the ranges, the
options of ``arena match`` and the "same game again" line are derived from it."""

import dataclasses

from typer.testing import CliRunner

from arena.cli._app import app
from arena.players._faults import FAULT_SETTINGS
from arena.players._timecontrol import TIME_SETTINGS, TimeControl, time_again
from arena.tournament._config import _FAULTS, _TIME
from arena.tournament._ranges import OPTIONS, RANGES, Range, parse_option


def test_every_field_of_the_time_control_is_declared_once():
    fields = [setting.field for setting in TIME_SETTINGS]
    assert sorted(fields) == sorted(field.name for field in dataclasses.fields(TimeControl))
    assert len(set(fields)) == len(fields) and len({setting.option for setting in TIME_SETTINGS}) == len(fields)


def test_the_file_keys_ranges_and_options_come_from_the_declarations():
    assert _TIME == {setting.field for setting in TIME_SETTINGS}
    for setting in TIME_SETTINGS:
        if setting.number:
            assert RANGES[setting.field] == Range(setting.low, setting.high)
            assert OPTIONS[setting.option] == setting.field
            assert parse_option(setting.option, str(setting.high)) == setting.high
        else:
            assert setting.option not in OPTIONS and setting.field not in RANGES


def test_arena_match_offers_each_option_with_its_help():
    shown = " ".join(CliRunner().invoke(app, ["match", "--help"], env={"COLUMNS": "400"}).stdout.split())
    for setting in TIME_SETTINGS:
        assert setting.option in shown and " ".join(setting.help.split())[:40] in shown, setting.option


def test_the_same_game_again_gives_the_same_control_back():
    control = TimeControl(move_ms=250, reserve_ms=5000, startup_ms=20_000, margin_ms=7, ponder=True, in_turn=True)
    flags = time_again(control)
    assert flags == ["--move-ms", "250", "--reserve-ms", "5000", "--startup-ms", "20000", "--margin-ms", "7",
                     "--ponder", "--in-turn"]
    read = {}
    for setting in TIME_SETTINGS:
        at = flags.index(setting.option)
        read[setting.field] = parse_option(setting.option, flags[at + 1]) if setting.number else True
    assert TimeControl(**read) == control
    assert time_again(TimeControl()) == []


def test_the_fault_settings_are_declared_once_too():
    assert _FAULTS == {setting.field for setting in FAULT_SETTINGS}
    for setting in FAULT_SETTINGS:
        if setting.number:
            assert RANGES[setting.field] == Range(setting.low, setting.high)
        if setting.number and setting.option:
            assert OPTIONS[setting.option] == setting.field
    shown = " ".join(CliRunner().invoke(app, ["match", "--help"], env={"COLUMNS": "400"}).stdout.split())
    assert "--fault-policy" in shown and "--substitutions" in shown and "Random substitutions before" in shown
