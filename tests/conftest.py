"""Session-wide test setup."""

import os
import signal
import sys
from pathlib import Path

import pytest

from . import _xdist

#: The tests' fourth game (``tests/fourth_game/``: its engine folder
#: ``site/pirate_arena_games/high_card/`` and its ``protocol/games/high-card.md``), on this
#: process's path before anything imports ``engines``, so every suite that reads the registry
#: runs it too. Only the test process sees it (a test whose children must, takes
#: :func:`every_game` or :func:`children_see_the_tests_games`): it never reaches a user.
#: (``engines`` reads the path once, at import: ``tests/fourth_game/test_high_card.py`` fails
#: if something imported it before this line.)
FOURTH_GAME_PATH = str(Path(__file__).resolve().parent / "fourth_game" / "site")
sys.path.append(FOURTH_GAME_PATH)

import engines  # noqa: E402 - after the line above, so that it finds the fourth game


def kept_in_the_tests(game_id: str) -> bool:
    """Whether the game ``game_id`` is one the tests keep (not the product's): a process started
    without :func:`children_see_the_tests_games` does not know it."""
    return Path(engines.game_package(game_id).__file__).resolve().is_relative_to(FOURTH_GAME_PATH)


@pytest.fixture
def children_see_the_tests_games(monkeypatch):
    """The processes this test starts (``arena``, bots) find the games kept in the tests too:
    :data:`FOURTH_GAME_PATH` leads their ``PYTHONPATH``, as it is on this process's path."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [FOURTH_GAME_PATH, os.environ.get("PYTHONPATH")])))


@pytest.fixture(params=engines.game_ids())
def every_game(request) -> str:
    """Each registered game in turn, by id: a test that takes it runs once per game, the
    product's and the tests' own (read from the registry, as ``tests/engines/test_generic.py``
    does, so a game added is run with no edit here). The processes a run of a game kept in the
    tests starts find it too (:func:`children_see_the_tests_games`); those of a product game's
    run get the environment unchanged."""
    if kept_in_the_tests(request.param):
        request.getfixturevalue("children_see_the_tests_games")
    return request.param


def pytest_sessionstart(session):
    """Give Ctrl-C back its default meaning in this process and so in every child it starts.

    A shell without job control starts background commands (``pytest ... &``, some CI runners)
    with SIGINT ignored, and an ignored signal stays ignored across exec: the arena processes
    that tests interrupt with SIGINT (tournament runs, ladder servers) would never see it.

    And leave the terminal's size out of the children's environment unless it was there when
    the suite started. pytest imports readline as it starts (9.0 does on every platform), and
    GNU readline, with no terminal on stdin (CI, an xdist worker), exports ``COLUMNS=80`` and
    ``LINES=24`` behind ``os.environ``'s back: every ``arena`` a test starts would then fit its
    tables to 80 columns, which the tests that read a table whole (``arena doctor``'s) do not
    expect."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for name in ("COLUMNS", "LINES"):
        if name not in os.environ:
            os.unsetenv(name)


@pytest.fixture(scope="session", autouse=True)
def _run_folder(request, tmp_path_factory):
    """The folder this run's xdist workers share (``tests/_xdist.py``): the parent of each
    worker's own temporary folder, as pytest-xdist's documentation shares session data."""
    if hasattr(request.config, "workerinput"):  # an xdist worker (not -n 0, not -p no:xdist)
        _xdist.RUN_FOLDER = tmp_path_factory.getbasetemp().parent
