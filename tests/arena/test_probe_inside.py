"""The doctor's probe program (``arena.players._probe_inside``, ``_probe_files``), its functions
run here, outside any sandbox, on folders, sockets and values the tests make: what each reports
is exact where the test set it up (a file it must find, a counter it parses), never a timing.
The whole program, in a real sandbox, is ``tests/arena/test_doctor.py``'s."""

import ctypes
import errno
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena.players import _probe_files as probe_files
from arena.players import _probe_inside as inside
from arena.players._probe_targets import Targets

MIB = 1 << 20


# -- the network and channels to other processes ------------------------------------------------------

def test_network_reaches_the_arenas_listeners_where_nothing_stops_it():
    targets = Targets()
    try:
        with socket.socket() as stdout:  # stands for the bot's stdout socket
            found = inside.network(targets.task([]), inside.open_libc(), stdout=stdout.fileno())
        assert (found["stdout"], found["socket"], found["unix"]) == ("connected",) * 3
        assert sorted(targets.reached()) == ["new socket", "stdout", "unix socket"]
    finally:
        targets.close()


def test_network_says_what_refused_each_attempt(tmp_path):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, not listening: refused
    with open(os.devnull, "wb") as stdout:  # a bot's stdout where the arena could make no socket
        found = inside.network({"port": port, "unix": str(tmp_path / "none.sock")}, inside.open_libc(),
                               stdout=stdout.fileno())
    assert found == {"dissolve": os.strerror(errno.ENOTSOCK), "stdout": os.strerror(errno.ENOTSOCK),
                     "socket": os.strerror(errno.ECONNREFUSED), "unix": os.strerror(errno.ENOENT)}


HOLD = ("import fcntl, sys\n"
        "held = open(sys.argv[1], 'rb')\n"
        "fcntl.lockf(held, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, int(sys.argv[2]))\n"
        "fcntl.flock(held, fcntl.LOCK_SH | fcntl.LOCK_NB)\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")


def test_locks_sees_the_lock_another_process_holds(tmp_path):
    shared = tmp_path / "shared"
    shared.write_bytes(b"x")
    assert inside.locks(str(shared), 7) == {"lock": "saw no lock", "flock": "locked"}
    with subprocess.Popen([sys.executable, "-c", HOLD, str(shared), "7"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout.readline() == "held\n"  # both locks are held from here on
        found = inside.locks(str(shared), 7)
        holder.stdin.close()
    assert found == {"lock": "saw the arena's lock", "flock": "saw the arena's lock"}
    assert inside.locks(str(tmp_path / "missing"), 7) == dict.fromkeys(("lock", "flock"), os.strerror(errno.ENOENT))


class RefusingLibc:
    """A C library whose every call fails with EPERM, as the bot's system-call filter answers."""

    def __getattr__(self, name):
        def refused(*args):
            ctypes.set_errno(errno.EPERM)
            return -1
        return refused


def test_kernel_channels_says_done_or_what_refused_and_leaves_nothing_open():
    assert inside.kernel_channels(RefusingLibc()) == dict.fromkeys(("inotify", "shm"), os.strerror(errno.EPERM))
    before = sorted(os.listdir("/proc/self/fd"))
    assert inside.kernel_channels(inside.open_libc()) == {"inotify": "done", "shm": "done"}
    assert sorted(os.listdir("/proc/self/fd")) == before


@pytest.mark.parametrize("result, said", [(0, "done"), (5, "done"), (-1, os.strerror(errno.EPERM))])
def test_called(result, said):
    ctypes.set_errno(errno.EPERM)
    assert probe_files.called(result) == said


# -- the filesystem -----------------------------------------------------------------------------------

@pytest.mark.parametrize("path, where", [
    ("/home/ann/clone", None),          # shown
    ("/home/ann/clone/bot.py", None),   # inside what is shown: not looked into
    ("/home", "down"),                  # on the way to it
    ("/home/ann", "down"),
    ("/home/ann/secret", "beside"),     # beside it
    ("/home/annex", "beside"),          # a name that only begins the same
    ("/srv", "beside"),
])
def test_beside_shown(path, where):
    assert probe_files.beside_shown(path, ["/opt/runtime", "/home/ann/clone"]) == where


def test_visible_reports_what_lies_beside_the_paths_it_is_shown(tmp_path):
    for path in ("way/shown/bot.py", "way/other/file", "secret", "way/also"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    (tmp_path / "way" / "link").symlink_to(tmp_path / "way" / "shown")
    shown = [str(tmp_path / "way" / "shown")]
    assert probe_files.visible([str(tmp_path), str(tmp_path / "missing")], shown) == sorted(
        str(tmp_path / path) for path in ("secret", "way/also", "way/other", "way/link"))
    assert probe_files.visible([str(tmp_path)], [str(tmp_path)]) == []  # shown itself: nothing
    assert probe_files.visible([str(tmp_path / "way" / "shown")], []) == [str(tmp_path / "way" / "shown")]
    assert len(probe_files.visible([str(tmp_path)], shown, at_most=2)) == 2


def test_visible_judges_what_a_folder_of_any_view_holds(tmp_path):
    (tmp_path / "own").mkdir()
    (tmp_path / "theirs").mkdir()
    found = probe_files.visible([str(tmp_path)], [str(tmp_path / "own")], look_inside=(str(tmp_path),))
    assert found == [str(tmp_path / "theirs")]  # not the folder itself, nor its own
    assert probe_files.visible([str(tmp_path)], [], look_inside=()) == [str(tmp_path)]


def test_written_names_the_folders_it_could_write_and_removes_its_file(tmp_path):
    assert probe_files.written((str(tmp_path), str(tmp_path / "missing"))) == [str(tmp_path)]
    assert list(tmp_path.iterdir()) == []


# -- the page cache and the dentry cache --------------------------------------------------------------

@pytest.fixture
def files(tmp_path):
    """A folder holding a 1 MiB file, a sparse 2 MiB one, a small one, and a link to the first."""
    (tmp_path / "one").write_bytes(b"p" * MIB)
    (tmp_path / "sub").mkdir()
    with open(tmp_path / "sub" / "two", "wb") as sparse:
        sparse.truncate(2 * MIB)
    (tmp_path / "small").write_bytes(b"s" * 100)
    (tmp_path / "link").symlink_to(tmp_path / "one")
    return tmp_path


def test_large_files_finds_regular_files_of_a_mebibyte_or_more(files):
    assert sorted(probe_files.large_files([str(files)], walk=100)) == [
        (MIB, str(files / "one")), (2 * MIB, str(files / "sub" / "two"))]
    assert probe_files.large_files([str(files)], walk=100, at_least=2 * MIB) == [(2 * MIB, str(files / "sub" / "two"))]


@pytest.mark.parametrize("size, windows, starts", [
    (MIB, 1, [0]),
    (MIB, 2, [0, MIB - probe_files.WINDOW]),
    (MIB, 4, [0, 5 * probe_files.WINDOW, 10 * probe_files.WINDOW, 15 * probe_files.WINDOW]),
    (MIB + 1000, 2, [0, MIB - probe_files.WINDOW]),  # aligned down: the last window lies inside the file
])
def test_window_start(size, windows, starts):
    assert [probe_files.window_start(size, index, windows) for index in range(windows)] == starts


def test_mapped_pages_reads_bit_63_of_each_entry_but_the_first():
    entry = {True: (1 << 63 | 12345).to_bytes(8, "little"), False: (12345).to_bytes(8, "little")}
    entries = b"".join(entry[present] for present in (True, True, False, True, False))
    assert probe_files.mapped_pages(entries) == [1, 0, 1, 0]


def test_page_cache_samples_each_window_and_tries_the_cache_calls(files):
    found = probe_files.page_cache(inside.open_libc(), [str(files)], walk=100, files=6, windows=2)
    per_window = probe_files.WINDOW // probe_files.PAGE - 1
    assert (found["files"], found["pages"]) == (2, 2 * 2 * per_window)
    assert 0 <= found["resident"] <= found["pages"]
    assert found["mincore"] == "done"
    assert found["pageout"] in ("done", os.strerror(errno.EINVAL))  # MADV_PAGEOUT: Linux 5.4 on
    assert probe_files.page_cache(inside.open_libc(), [str(files)], walk=100, files=1, windows=2)["files"] == 1


def test_dentry_ratio_looks_up_names_and_makes_none(tmp_path):
    assert probe_files.dentry_ratio(str(tmp_path), count=20) > 0
    assert list(tmp_path.iterdir()) == []


MOUNTINFO = """\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
35 22 0:31 / /tmp rw,nosuid master:7 - tmpfs tmpfs rw,size=1024k
36 35 7:0 / /tmp/bots/one ro - erofs /dev/loop0 ro
"""


def test_parse_mounts_reads_each_mount_point_and_type():
    assert probe_files.parse_mounts(MOUNTINFO) == [("/", "ext4"), ("/tmp", "tmpfs"), ("/tmp/bots/one", "erofs")]


def test_filesystem_is_the_innermost_mount_holding_the_path(tmp_path):
    (tmp_path / "folder").mkdir()
    mounts = [("/", "ext4"), (str(tmp_path), "tmpfs"), (str(tmp_path / "fold"), "erofs")]
    device = os.stat(tmp_path / "folder").st_dev
    assert probe_files.filesystem(str(tmp_path / "folder"), mounts) == {
        "path": str(tmp_path / "folder"), "type": "tmpfs", "device": f"{os.major(device)}:{os.minor(device)}"}
    (tmp_path / "link").symlink_to(tmp_path / "folder")
    assert probe_files.filesystem(str(tmp_path / "link"), mounts)["path"] == str(tmp_path / "folder")


# -- processes, the machine's counters, resources ---------------------------------------------------

def test_sysinfo_procs_is_the_short_at_byte_80():
    assert inside.sysinfo_procs(bytes(80) + (412).to_bytes(2, "little") + bytes(46)) == 412


def test_identity_says_who_it_is_and_whom_it_reached():
    found = inside.identity(os.getpid(), inside.open_libc())
    assert (found["uid"], found["signal"], found["env"]) == (os.getuid(), "reached the arena", sorted(os.environ))
    assert found["nofile"] == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert found["pids"] >= 1 and found["sysinfo_procs"] >= 1 and len(found["loadavg"].split()) == 5
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    assert inside.identity(pid_max + 1, inside.open_libc())["signal"] == os.strerror(errno.ESRCH)
    assert inside.identity(os.getpid(), RefusingLibc())["sysinfo_procs"] is None


def test_forks_and_hogs_count_their_children():
    assert inside.forks(3) == 3
    assert inside.hogs(2, 1) == ["kept its memory"] * 2


def test_tmp_mb(tmp_path):
    assert inside.tmp_mb(str(tmp_path)) > 0
    assert inside.tmp_mb(str(tmp_path / "missing")) is None


def test_cores_used_is_the_cpu_time_of_it_and_its_children_over_the_time_passed():
    before = os.times_result((1.0, 0.5, 0.0, 0.0, 100.0))
    after = os.times_result((2.0, 0.5, 0.75, 0.25, 102.0))
    assert inside.cores_used(before, after, 2.0) == 1.0


# -- frozen while not on move -------------------------------------------------------------------------

def frozen(times, told, window_s=15.0):
    """:func:`frozen_window` on a clock that reads ``times`` in turn, told the arena thawed it
    at the answers of ``told``; what happened, in order."""
    events, clock, answers = [], iter(times), iter(told)

    def read():
        events.append("clock")
        return next(clock)

    pauses = inside.frozen_window(window_s, lambda: next(answers), lambda: events.append("announce"), read)
    return pauses, events


def test_frozen_window_reports_each_pause_and_ends_the_step_after_it_is_told():
    pauses, events = frozen([10.0, 10.001, 10.002, 10.5, 10.501], [False, False, True])
    assert pauses == [[10.002, 10.5]]
    assert events[:2] == ["clock", "announce"]  # its clock runs before it says the window began
    assert events.count("clock") == 5  # one step after it was told


def test_frozen_window_ends_at_its_length_and_keeps_the_latest_pauses():
    pauses, _ = frozen([float(second) for second in range(200)], [False] * 200, window_s=100)
    assert len(pauses) == inside.PAUSES_KEPT and pauses[-1] == [99.0, 100.0]
