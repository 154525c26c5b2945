"""The tournament's progress display: plain lines off a terminal, a rich live view on one."""

import io
import re
from types import SimpleNamespace

from rich.console import Console

from arena.cli._progress import LiveDisplay, PlainProgress, open_progress
from arena.players._faults import Fault, FaultKind
from arena.tournament._runner import Progress

from .test_tournament import arena, write_tournament


def game(bots, ranks, faults=()):
    return SimpleNamespace(bots=tuple(bots), ranks=tuple(ranks), faults=tuple(faults))


CRASH = Fault(seat=1, bot="bob", kind=FaultKind.CRASH, detail="exited with code 1", step=7)
GAMES = [game(["ann", "bob"], [1, 2]), game(["bob", "ann"], [2, 1], [CRASH]), game(["ann", "cid"], [2, 1])]


def progresses(total=10):
    # done, played now, elapsed: 2 games/s, so the ETA is (total - done) / 2 seconds.
    return [Progress(done, total, done, done / 2, "ann", 75.0, last) for done, last in enumerate(GAMES, 1)]


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_plain_lines_every_interval_and_the_fault_once():
    out = io.StringIO()
    display = PlainProgress(out, interval=0)
    for progress in progresses():
        display(progress)
    assert out.getvalue().splitlines() == [
        "1/10 games  2.0 games/s  ETA 0:04  faults 0  leader ann 75%",
        "2/10 games  2.0 games/s  ETA 0:04  faults 1  leader ann 75%",
        "last fault: bob (seat 1) crash at step 7: exited with code 1",
        "3/10 games  2.0 games/s  ETA 0:03  faults 1  leader ann 75%",
    ]


def test_plain_lines_wait_for_the_interval_but_not_for_the_end():
    out = io.StringIO()
    display = PlainProgress(out, interval=3600)
    for progress in progresses(total=3):
        display(progress)
    assert out.getvalue().splitlines() == [
        "1/3 games  2.0 games/s  ETA 0:01  faults 0  leader ann 75%",
        "3/3 games  2.0 games/s  ETA 0:00  faults 1  leader ann 75%",
        "last fault: bob (seat 1) crash at step 7: exited with code 1",
    ]


def test_the_display_suits_the_stream():
    assert isinstance(open_progress(io.StringIO()), PlainProgress)
    assert isinstance(open_progress(Tty()), LiveDisplay)


def test_live_view_shows_bar_rate_faults_standings_and_last_fault():
    stored = [SimpleNamespace(seats=("cid", "bob"), ranks=(1, 2), faults=({"bot": "bob"},))]
    display = LiveDisplay(Tty(), stored=stored, n_boot=20)
    assert display.renderable().plain == "starting the bots ..."
    for progress in progresses():
        display(progress)
    display.refit()
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system=None)
    console.print(display.renderable())
    text = console.file.getvalue()
    assert "3/10 games  2.0 games/s  ETA 0:03  faults 2" in text  # one stored fault, one now
    assert "standings after 4 games (95% interval, 20 replicates)" in text
    names = [line.split()[1] for line in text.splitlines() if re.match(r"\s*\d\s+\w+\s+-?\d+\s+-?\d+ \.\. -?\d+", line)]
    assert sorted(names) == ["ann", "bob", "cid"]
    assert text.splitlines()[-1] == "last fault: bob (seat 1) crash at step 7: exited with code 1"


def test_a_tournament_off_a_terminal_prints_whole_lines(tmp_path):
    path = write_tournament(tmp_path, rounds=2)
    path.chmod(0o600)
    result = arena("tournament", "run", str(path))
    assert "\r" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("dead-mans-draw: 3 entrants, 12 games (0 already played), concurrency 2, ")
    assert re.fullmatch(r"12/12 games  \d+\.\d games/s  ETA 0:00  faults 0  leader r\d \d+%", lines[-1])
    assert result.stdout.splitlines()[0].split()[:3] == ["#", "name", "elo"]
