"""Which cgroup hierarchy serves which role (v1, v2, hybrid), what a bot's cgroups write where
(against fake cgroup trees in tmp_path: no root needed), and when a bot is frozen.

The live counterparts (real cgroups, as root) are in test_cgroups_live.py."""

import subprocess
from pathlib import Path

import pytest

from arena.players._faults import FaultKind
from arena.players._player import cgroup_fault
from arena.sandbox._botcgroup import BotCgroup
from arena.sandbox._cgroups import (CgroupLayout, Hierarchy, kill_leftovers, parse_mounts, parse_own_cgroups, plan_layout,
                                    remove_stale_cgroups)
from arena.sandbox._limits import Limits
from arena.sandbox._sandbox import Sandbox

V1_MOUNTS = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
V1_OWN = "5:pids:/\n4:memory:/service/arena\n3:freezer:/\n2:cpu,cpuacct:/\n1:name=systemd:/x\n0::/\n"


def test_a_v1_machine_uses_a_hierarchy_per_role_inside_the_arenas_own_cgroup():
    layout = plan_layout(parse_mounts(V1_MOUNTS), parse_own_cgroups(V1_OWN), "pirate-arena-7")
    where = {role: (hierarchy.version, str(hierarchy.base)) for role, hierarchy in layout.roles}
    assert where == {"pids": (1, "/sys/fs/cgroup/pids"), "cpu": (1, "/sys/fs/cgroup/cpu,cpuacct"),
                     "cputime": (1, "/sys/fs/cgroup/cpu,cpuacct"),
                     "memory": (1, "/sys/fs/cgroup/memory/service/arena"), "freezer": (1, "/sys/fs/cgroup/freezer")}
    assert layout.missing == ()
    assert len(layout.hierarchies) == 4  # cpu and cpuacct share one
    assert layout.folder(layout.hierarchy("memory")) == Path("/sys/fs/cgroup/memory/service/arena/pirate-arena-7")


def test_a_hybrid_machine_takes_the_freezer_from_v2_where_v1_has_none(tmp_path):
    mounts = V1_MOUNTS.replace("/sys/fs/cgroup/unified", str(tmp_path)).replace(
        "37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer\n", "")
    layout = plan_layout(parse_mounts(mounts), parse_own_cgroups(V1_OWN), "pirate-arena-7")
    assert layout.hierarchy("freezer") == Hierarchy(2, tmp_path, frozenset())
    assert layout.hierarchy("cputime").version == 1  # v1 cpuacct first


def test_a_v2_machine_uses_the_controllers_its_top_enables_and_names_the_others(tmp_path):
    (tmp_path / "cgroup.subtree_control").write_text("cpu pids\n")
    mounts = f"41 31 0:38 / {tmp_path} rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n"
    layout = plan_layout(parse_mounts(mounts), parse_own_cgroups("0::/user.slice/session-1.scope\n"), "pirate-arena-7")
    assert {role for role, _ in layout.roles} == {"pids", "cpu", "cputime", "freezer"}
    assert layout.hierarchy("cpu").base == tmp_path  # the top, not the arena's own (it holds processes)
    missing = dict(layout.missing)
    assert set(missing) == {"memory"}
    assert f"echo +memory > {tmp_path / 'cgroup.subtree_control'}" in missing["memory"]


def test_without_cgroup_mounts_every_role_is_missing():
    layout = plan_layout([], {}, "pirate-arena-7")
    assert layout.roles == () and {role for role, _ in layout.missing} == {"pids", "cpu", "cputime", "memory", "freezer"}


# -- a fake cgroup2 tree -------------------------------------------------------------------------

#: the files a v2 kernel gives every new cgroup, with their first content
V2_FILES = {"cgroup.procs": "", "cgroup.freeze": "0", "cgroup.kill": "", "cgroup.subtree_control": "",
            "cpu.stat": "usage_usec 0\nuser_usec 0\nsystem_usec 0\n", "cpu.weight": "100", "cpu.max": "max 100000",
            "memory.max": "max", "memory.swap.max": "max", "pids.max": "max",
            "memory.events": "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n"}


@pytest.fixture
def v2(tmp_path, monkeypatch):
    """A fake cgroup2 mount at ``tmp_path / "cg"``: making a folder below it fills it with the
    files the kernel would (Path.mkdir is wrapped for paths below it)."""
    top = tmp_path / "cg"
    top.mkdir()
    (top / "cgroup.subtree_control").write_text("cpu memory pids")
    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        real_mkdir(self, *args, **kwargs)
        if top in self.parents:
            for name, text in V2_FILES.items():
                if not (self / name).exists():
                    (self / name).write_text(text)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    hierarchy = Hierarchy(2, top, frozenset({"cpu", "memory", "pids"}))
    layout = CgroupLayout("pirate-arena-7", tuple((role, hierarchy) for role in ("pids", "cpu", "cputime", "memory",
                                                                                  "freezer")))
    return layout, top / "pirate-arena-7"


def read(folder: Path, name: str) -> str:
    return (folder / name).read_text()


def test_v2_a_bot_gets_its_limits_written_where_the_kernel_reads_them(v2):
    layout, arena = v2
    box = Sandbox(cgroups=layout)
    cgroup = box.new_cgroup(Limits(memory_mb=512, processes=64, cpus=0.5, cpu_s=30))
    bot = arena / "bot-0"
    assert read(arena, "cgroup.subtree_control") == "+cpu +memory +pids"  # the bots' folders get controllers
    assert (read(bot, "pids.max"), read(bot, "cpu.weight"), read(bot, "cpu.max")) == ("64", "100", "50000 100000")
    assert (read(bot, "memory.max"), read(bot, "memory.swap.max")) == (str(512 * 2**20), "0")  # swap counted as memory
    assert (cgroup.memory_mb, cgroup.cpus, cgroup.cpu_s) == (512, 0.5, 30)


def test_v2_the_organisers_ceilings_bound_what_a_manifest_asks(v2):
    layout, arena = v2
    box = Sandbox(cgroups=layout, max_cpus=1.0, max_memory_mb=1024)
    box.new_cgroup(Limits(memory_mb=8192, cpus=4))
    box.new_cgroup(Limits(memory_mb=None, cpus=None))  # 0 in a manifest: no limit of its own
    for bot in ("bot-0", "bot-1"):
        assert (read(arena / bot, "cpu.max"), read(arena / bot, "memory.max")) == ("100000 100000", str(1024 * 2**20))
    assert box.tmpfs_bytes(Limits(memory_mb=256)) == 256 * 2**20
    assert box.tmpfs_bytes(Limits(memory_mb=8192)) == 1024 * 2**20


def test_tmpfs_size_without_a_memory_cgroup_is_a_quarter_of_memory_mb():
    assert Sandbox().tmpfs_bytes(Limits(memory_mb=2048)) == 512 * 2**20
    assert Sandbox().tmpfs_bytes(Limits(memory_mb=None)) is None


def test_v2_join_freeze_thaw_and_kill_write_the_core_files(v2):
    layout, arena = v2
    cgroup = Sandbox(cgroups=layout).new_cgroup(Limits())
    bot = arena / "bot-0"
    cgroup.join()
    assert read(bot, "cgroup.procs") == "0"  # "0": the writing process (the bot's, before exec)
    cgroup.freeze()
    assert read(bot, "cgroup.freeze") == "1" and cgroup.frozen
    cgroup.thaw()
    assert read(bot, "cgroup.freeze") == "0" and not cgroup.frozen
    (bot / "cgroup.procs").write_text("4242\n")
    kill_leftovers(bot, remove=False)  # cgroup.kill: one write kills every process (here it cannot)
    assert read(bot, "cgroup.kill") == "1"


def test_v2_cpu_time_and_oom_kills_are_read_and_explain_a_fault(v2):
    layout, arena = v2
    cgroup = Sandbox(cgroups=layout).new_cgroup(Limits(memory_mb=256, cpu_s=2))
    bot = arena / "bot-0"
    assert cgroup_fault(cgroup) is None
    (bot / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2400000\nsystem_usec 100000\n")
    assert cgroup.cpu_seconds() == 2.5
    over = cgroup_fault(cgroup)
    assert (over.kind, over.detail) == (
        FaultKind.TIMEOUT, "used 2.5 s of CPU time, more than its cpu_s of 2 s (all its processes together)")
    (bot / "memory.events").write_text("low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\noom_group_kill 0\n")
    assert cgroup.oom_kills() == 1
    memory = cgroup_fault(cgroup)  # an OOM kill outranks the CPU time
    assert (memory.kind, memory.detail) == (FaultKind.MEMORY, "used more than its 256 MiB of memory (its processes, "
                                            "and its files in /tmp and /dev/shm, together); the kernel killed 1 of "
                                            "its processes")


def test_v2_memory_events_without_an_oom_kill_are_no_fault(v2):
    layout, arena = v2
    cgroup = Sandbox(cgroups=layout).new_cgroup(Limits())
    (arena / "bot-0" / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 0\noom_kill 0\noom_group_kill 0\n")
    assert cgroup_fault(cgroup) is None


def test_v2_a_bot_whose_limit_cannot_be_written_leaves_nothing_behind(v2):
    layout, arena = v2
    (arena.parent / "pirate-arena-7").mkdir()
    (arena / "bot-0").mkdir()  # taken: a new bot's folder must be new
    assert Sandbox(cgroups=layout, _ids=iter([0])).new_cgroup(Limits()) is None
    assert [path.name for path in arena.iterdir() if path.is_dir()] == ["bot-0"]


def test_v2_the_layout_is_removed_with_its_bots(v2):
    layout, arena = v2
    box = Sandbox(cgroups=layout)
    box.new_cgroup(Limits())
    box.new_cgroup(Limits())
    for folder in (arena / "bot-0", arena / "bot-1", arena):
        for name in V2_FILES:
            (folder / name).unlink()  # the kernel's files vanish with the folder; a tmp folder's must go first
    box.close()
    assert not arena.exists()


def test_a_dead_arenas_folders_removed_meanwhile_by_another_arena_are_no_error(tmp_path, monkeypatch):
    # Every arena that starts sweeps the folders of dead ones, so two that start at once (the
    # test suite's two workers do, often) may both find the same folders: the one that finds
    # them gone as it looks inside them goes on (it raised FileNotFoundError, and the arena
    # did not start).
    ended = subprocess.Popen(["true"])
    ended.wait()
    dead = tmp_path / f"pirate-arena-{ended.pid}"
    (dead / "bot-0").mkdir(parents=True)
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self == dead:  # the other arena's sweep, between this one's listing and its look inside
            (dead / "bot-0").rmdir()
            dead.rmdir()
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    remove_stale_cgroups(tmp_path)
    assert not dead.exists()


# -- on move and off ----------------------------------------------------------------------------

def test_a_bot_is_thawed_on_move_frozen_off_move_unless_ponder_and_thawed_for_good_at_the_end(v2):
    layout, arena = v2
    cgroup = BotCgroup(layout, "bot-9")
    freeze = arena / "bot-9" / "cgroup.freeze"
    cgroup.rest()
    assert freeze.read_text() == "1"
    cgroup.wake()
    assert freeze.read_text() == "0"
    cgroup.rest(ponder=True)
    assert freeze.read_text() == "0"
    cgroup.rest()
    cgroup.release()  # shut down: it must read bye and see SIGTERM
    cgroup.rest()
    assert freeze.read_text() == "0" and not cgroup.frozen


def test_doctor_and_the_tournaments_first_lines_name_each_missing_cgroup(tmp_path):
    from arena.sandbox._open import cgroups_warning

    assert len(Sandbox().missing_cgroups()) == 5  # no cgroups at all (not root)
    (tmp_path / "cgroup.subtree_control").write_text("cpu pids\n")
    mounts = f"41 31 0:38 / {tmp_path} rw,relatime - cgroup2 cgroup2 rw\n"
    box = Sandbox(cgroups=plan_layout(parse_mounts(mounts), parse_own_cgroups("0::/\n"), "pirate-arena-7"))
    assert box.missing_cgroups() == ["memory limit with tmpfs (cgroup memory)"]
    assert cgroups_warning(box) == ("warning: missing protections (`arena doctor` says why): memory limit with tmpfs "
                                    "(cgroup memory): bots can slow each other down or take the machine's memory")
    rows = {name: (active, how) for name, active, how in box.describe()}
    memory = next(name for name in rows if name.startswith("memory limit per bot"))
    assert rows[memory][0] is False and f"echo +memory > {tmp_path}/cgroup.subtree_control" in rows[memory][1]
    assert cgroups_warning(Sandbox(cgroups=CgroupLayout("x", tuple((role, Hierarchy(2, tmp_path)) for role in
                                                                   ("pids", "cpu", "cputime", "memory", "freezer"))))) is None
