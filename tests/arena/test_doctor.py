"""``arena doctor`` reports each protection from a live attack by a probe bot, not from the
configuration: a protection that is configured but does not hold is reported as missing."""

import os
import subprocess
import sys

import pytest

from arena.players._probe import judge, run_probe
from arena.sandbox import _view
from arena.sandbox._detect import detect_sandbox

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

as_root_with_bwrap = pytest.mark.skipif(os.geteuid() != 0 or detect_sandbox("auto").bwrap is None,
                                        reason="needs root and bubblewrap (every protection active)")


def doctor(*args: str, columns: int | None = None) -> subprocess.CompletedProcess:
    """``arena doctor`` as a program; without ``columns``, no width (piped: whole lines)."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, "-m", "arena.cli", "doctor", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def rows(output: str) -> dict[str, str]:
    """The probe's table: protection -> held ("yes"/"NO")."""
    table = output.split("\n\n")[0].splitlines()[3:]
    return {line[8:86].strip(): line[:8].strip() for line in table}


@as_root_with_bwrap
def test_every_attack_fails_in_the_default_mode_as_root():
    result = doctor()
    assert result.returncode == 0, result.stderr
    held = rows(result.stdout)
    assert len(held) >= 10 and set(held.values()) == {"yes"}, result.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (own uids)")
def test_without_bubblewrap_the_view_and_the_pid_namespace_are_missing():
    result = doctor("--sandbox", "none")
    assert result.returncode == 0, result.stderr
    held = rows(result.stdout)
    assert held["minimal read-only view: nothing of /run, /home, /var, /tmp but its own path"] == "NO"
    assert held["own PID namespace (sees only its own processes)"] == "NO"
    assert held["no network: its stdout socket re-connected, or a new socket, reaches nothing"] == "yes"
    assert "protection(s) missing; see docs/sandbox.md, 'Running untrusted bots'." in result.stdout
    assert "(docs/sandbox.md, 'What the sandbox cannot do')" in " ".join(result.stdout.split())


def held_by(checks) -> dict[str, bool]:
    return {check.protection.split(":")[0]: check.held for check in checks}


@as_root_with_bwrap
async def test_a_protection_that_is_configured_but_broken_is_reported_missing(monkeypatch):
    # Break two layers behind the configuration's back: the view shows the whole root, and
    # neither the filter nor the private network is there. The sandbox still says bubblewrap.
    monkeypatch.setattr(_view, "_system_arguments", lambda whole=True: ("--ro-bind", "/", "/"))
    sandbox = detect_sandbox("auto")
    try:
        sandbox.seccomp = None
        sandbox.private_network = False
        found = await run_probe(sandbox)
    finally:
        sandbox.close()
    held = held_by(judge(found))
    assert held["minimal read-only view"] is False
    assert held["no channels to other processes"] is False
    # Issue 25's first attack, as it went through: bubblewrap's network namespace keeps a new
    # socket in, but the stdout socket made in the host's namespace reaches the host.
    assert held["no network"] is False and "stdout" in found["reached"]
    assert held["the host's unix sockets (under /run) out of reach"] is False  # /run is in the whole root
    assert held["own unprivileged uid"] is True


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (own uids)")
async def test_without_filter_and_private_network_the_stdout_escape_is_caught():
    sandbox = detect_sandbox("none")
    try:
        sandbox.seccomp = None
        sandbox.private_network = False
        found = await run_probe(sandbox)
    finally:
        sandbox.close()
    assert "stdout" in found["reached"] and held_by(judge(found))["no network"] is False


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (cgroups)")
async def test_without_cgroups_memory_is_limited_only_per_process_and_nothing_is_frozen():
    sandbox = detect_sandbox("auto")
    try:
        if sandbox.cgroups is None:
            pytest.skip("no cgroups here")
        checks = judge(await run_probe(sandbox))
        with_cgroups, evidence = held_by(checks), {check.protection: check.evidence for check in checks}
        layout, sandbox.cgroups = sandbox.cgroups, None  # as on a machine without them
        try:
            found = await run_probe(sandbox)
        finally:
            sandbox.cgroups = layout
    finally:
        sandbox.close()
    assert with_cgroups["memory limited over all its processes (and its /tmp)"] is True
    assert with_cgroups["frozen while not on move"] is True, evidence["frozen while not on move"]
    # Four children each under the limit on its own keep four times their share.
    assert held_by(judge(found))["memory limited over all its processes (and its /tmp)"] is False
    assert found["hogs"].count("kept its memory") >= 3
    assert held_by(judge(found))["frozen while not on move"] is False


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (cgroups)")
async def test_a_freezer_that_says_it_holds_but_does_not_is_reported_missing(monkeypatch):
    # The freeze is never written, and the freezer's state is read as stopped all the same:
    # only the probe's own clock can tell that it kept running.
    from arena.sandbox._botcgroup import BotCgroup

    def pretend(cgroup):
        cgroup.frozen = True

    monkeypatch.setattr(BotCgroup, "freeze", pretend)
    monkeypatch.setattr(BotCgroup, "settled", lambda cgroup: True)
    sandbox = detect_sandbox("auto")
    try:
        if sandbox.cgroups is None:
            pytest.skip("no cgroups here")
        found = await run_probe(sandbox)
    finally:
        sandbox.close()
    check = next(check for check in judge(found) if check.protection == "frozen while not on move")
    assert check.held is False and "it ran while the arena held it frozen" in check.evidence, check.evidence


@pytest.mark.parametrize("frozen, pauses, held", [
    ([10.0, 10.3], [[9.9995, 10.3004]], True),                  # stopped before, ran again after
    ([10.0, 10.3], [[9.0, 9.5], [10.0005, 10.3004]], True),     # within the probe's rounding
    ([10.0, 10.3], [[10.05, 10.4]], False),                     # still ran 50 ms into the freeze
    ([10.0, 10.3], [[9.9, 10.2], [10.21, 10.35]], False),       # ran in the middle of it
    ([10.0, 10.3], [[3.0, 30.0]], True),                        # a longer pause (load) spans it
    (None, [[3.0, 30.0]], False),                               # no freeze: a pause proves nothing
])
def test_only_a_pause_that_spans_the_whole_freeze_counts(frozen, pauses, held):
    from arena.players._probe_judge import still_through

    assert still_through(frozen, pauses) is held


def test_the_tables_fit_the_terminal_width():
    wide = doctor("--sandbox", "none", "python -m bots.random")
    narrow = doctor("--sandbox", "none", "python -m bots.random", columns=80)
    assert wide.returncode == narrow.returncode == 0, narrow.stderr
    assert max(map(len, wide.stdout.splitlines())) > 80  # the check below would hold without a wrap
    assert [line for line in narrow.stdout.splitlines() if len(line) > 80] == []
    # Wrapped, not cut: the words of a wrapped cell follow on the next lines of its column.
    lines = narrow.stdout.splitlines()
    row = next(index for index, line in enumerate(lines) if line[8:].startswith("own PID namespace"))
    cell = [line[8:].split("  ")[0].strip() for line in lines[row:row + 2]]
    assert " ".join(cell) == "own PID namespace (sees only its own processes)"


@pytest.mark.parametrize("rows, headers, width, expected", [
    ([["a", "bb"]], ["x", "y"], 80, None),                                   # fits as it is
    ([["yes", "w " * 30, "v " * 40]], ["held", "p", "q"], 80, [None, 35, 35]),  # the wide ones share the room
    ([["yes", "w " * 10, "v " * 80]], ["held", "p", "q"], 80, [None, None, 50]),  # the narrow keeps its width
    ([["a", "b" * 40]], ["x", "y"], None, None),                             # no width: whole lines
    ([["a" * 50, "b" * 50]], ["x", "y"], 12, [10, 10]),                      # never narrower than 10
])
def test_fit_widths(rows, headers, width, expected):
    from tabulate import tabulate

    from arena.cli._width import fit_widths

    widths = fit_widths(rows, headers, width)
    assert widths == expected
    if expected is not None and width >= 40:
        assert max(map(len, tabulate(rows, headers=headers, maxcolwidths=widths).splitlines())) <= width


def test_the_channels_table_leaves_out_what_the_probe_found_closed():
    from arena.players._probe import CHANNELS_LEFT, channels_left

    shared = {"filesystems": [{"own": False}], "dentry_ratio": 3.0, "sysinfo_procs": 412,
              "loadavg": "0.52 0.61 0.70 3/412 9999"}
    rows = channels_left(shared)
    assert [row[0] for row in rows] == [row[0] for row in CHANNELS_LEFT]
    assert rows[0][2].endswith("the probe: a name looked up again answered 3.0x faster")
    closed = {"filesystems": [{"own": True}], "dentry_ratio": 1.0, "sysinfo_procs": 1,
              "loadavg": "0.00 0.00 0.00 1/1 1"}
    assert [row[0] for row in channels_left(closed)] == [
        "inode numbers of new pipes and sockets (machine-wide)", "CPU and cache contention"]
