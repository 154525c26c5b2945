"""The tournament's progress display: plain lines off a terminal, a rich live view on one."""

import io
import re
import subprocess
import sys
import textwrap
from types import SimpleNamespace

from rich.console import Console

from arena.cli._progress import LiveDisplay, PlainProgress, open_progress
from arena.players._faults import Fault, FaultKind
from arena.tournament._runner import Progress

from ._warnings import without_sandbox_warnings
from .test_tournament import arena, write_tournament


def game(bots, ranks, faults=()):
    return SimpleNamespace(bots=tuple(bots), ranks=tuple(ranks), faults=tuple(faults))


CRASH = Fault(seat=1, bot="bob", kind=FaultKind.CRASH, detail="exited with code 1", step=7)  # the 8th step: displays count from 1
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
        "last fault: bob (seat 1) crash at step 8: exited with code 1",
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
        "last fault: bob (seat 1) crash at step 8: exited with code 1",
    ]


def test_the_display_suits_the_stream():
    assert isinstance(open_progress(io.StringIO()), PlainProgress)
    assert isinstance(open_progress(Tty()), LiveDisplay)


def test_live_view_shows_bar_rate_faults_standings_and_last_fault():
    stored = [SimpleNamespace(seats=("cid", "bob"), ranks=(1, 2), faults=({"bot": "bob"},))]
    display = LiveDisplay(Tty(), stored=stored, n_boot=20)  # a bootstrap on request
    assert display.renderable().plain == "starting the bots ..."
    for progress in progresses():
        display(progress)
    display.refit()
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system=None)
    console.print(display.renderable())
    text = console.file.getvalue()
    assert "3/10 games  2.0 games/s  ETA 0:03  faults 2" in text  # one stored fault, one now
    assert "standings after 4 games (95% interval: bootstrap, 20 replicates)" in text
    names = [line.split()[1] for line in text.splitlines() if re.match(r"\s*\d\s+\w+(\s+-?\d+\.\d){3}", line)]
    assert sorted(names) == ["ann", "bob", "cid"]
    assert text.splitlines()[-1] == "last fault: bob (seat 1) crash at step 8: exited with code 1"


def test_a_tournament_off_a_terminal_prints_whole_lines(tmp_path):
    path = write_tournament(tmp_path, rounds=2)
    path.chmod(0o600)
    result = arena("tournament", "run", str(path))
    assert "\r" not in result.stderr
    lines = without_sandbox_warnings(result.stderr).splitlines()
    assert lines[0].startswith("dead-mans-draw: 3 entrants, 12 games (0 already played), concurrency 2, ")
    assert re.fullmatch(r"12/12 games  \d+\.\d games/s  ETA 0:00  faults 0  leader r\d \d+%", lines[-1])
    assert result.stdout.splitlines()[0].split()[:3] == ["#", "name", "elo"]


def _rows(text: str) -> dict[str, list[str]]:
    """name -> [elo, -, +] of a standings table as printed (the live frame's or the final one)."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"\s*\d+\s+(\S+)\s+(-?\d+\.\d)\s+(\d+\.\d)\s+(\d+\.\d)\s", line + " ")
        if match:
            rows[match[1]] = list(match.groups()[1:])
    return rows


def test_the_last_live_frame_and_the_final_table_show_the_same_intervals(tmp_path):
    """One interval by default everywhere (the cluster-robust one, whose coverage
    docs/ratings.md measures): the live display's last frame, `arena standings` (also the end
    of a run) and `arena report` agree, and the live display says which it shows."""
    from arena.report import report_html
    from arena.tournament._store import ResultsStore

    path = write_tournament(tmp_path, rounds=3)
    path.chmod(0o600)
    arena("tournament", "run", str(path), "-q")
    final = _rows(arena("standings", str(tmp_path / "t.db")).stdout)
    store = ResultsStore.open(tmp_path / "t.db")
    try:
        games = list(store.games())
        display = LiveDisplay(Tty(), stored=games[:5])
        for done, stored in enumerate(games[5:], 6):
            display(Progress(done, len(games), done, 1.0, None, 0.0,
                             SimpleNamespace(bots=stored.seats, ranks=stored.ranks, faults=(), reason=None),
                             stored.block))
        display.refit()
        page, _ = report_html(store)
    finally:
        store.close()
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system=None)
    console.print(display.renderable())
    live = console.file.getvalue()
    assert f"standings after {len(games)} games (95% interval: cluster-robust" in live
    assert _rows(live) == final and len(final) == 3
    assert "intervals cluster-robust" in page and "bootstrap" not in page.split('id="standings"')[1][:3000]


def test_live_standings_follow_the_games_from_the_start():
    """The first fit's cost once included importing numpy and the ratings, and the next fit
    waited 20 times that: the standings stayed "after 1 game" for ~20 s. In a fresh
    interpreter (nothing imported yet), the second game shows within seconds."""
    script = textwrap.dedent("""
        import io, sys, time
        from types import SimpleNamespace
        from arena.cli._progress import LiveDisplay
        from arena.tournament._runner import Progress

        class Tty(io.StringIO):
            def isatty(self):
                return True

        def game(done):
            last = SimpleNamespace(bots=("ann", "bob"), ranks=(1, 2) if done % 2 else (2, 1), faults=(), reason=None)
            return Progress(done, 10, done, 1.0, None, 0.0, last, f"b{done}")

        def shown(display, games, limit):
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline:
                if display._standings is not None and display._standings[1] == games:
                    return True
                time.sleep(0.01)
            return False

        assert "numpy" not in sys.modules
        with LiveDisplay(Tty(), standings_every=0.2) as display:
            display(game(1))
            assert shown(display, 1, 60), "no first fit"
            display(game(2))
            second = shown(display, 2, 3.0)
        print("second" if second else "late")  # (rich's live display takes stdout while it runs)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip().splitlines()[-1:] == ["second"], (result.stdout, result.stderr)
