"""The sandbox: what the operating system does to confine one foreign program, and nothing
about games or the protocol.

Each threat, what stops it, and the test (with real bots) that fails if it does not:

=============================================  ==================================  ==========================================
threat                                         mechanism                           test (``tests/arena/``)
=============================================  ==================================  ==========================================
reach the network, the host's services         bubblewrap's namespaces; the        ``test_sandbox_view.py``, ``test_seccomp.py``,
(a re-connected stdout socket too)             filter; an empty loopback (root)    ``test_doctor.py``
read the database, logs, other entrants        bubblewrap's view (``_view``);      ``test_hostile.py``, ``test_manifest_view.py``,
                                               own uids (root)                     ``test_sandbox_view.py``
widen its view by what its files say           its system part is its runtime's    ``test_manifest_view.py``,
(manifest, DT_NEEDED, RPATH, #!)               (``_runtimes``), its files only     ``test_sandbox_fail_closed.py``,
                                               checked against it; ``_widening``   ``test_sandbox_runtimes.py``
a folder an image cannot be (hard links,       counted as the disk holds it,       ``test_sandbox_fail_closed.py``
entries, sparse files, mkfs fails)             refused: ``_folders``, ``_images``
signal across rotations or seats: page         residency (``_resident``); an       ``test_hostile_pagecache.py``,
cache, dentry cache, futexes on files          image per folder (``_images``);     ``test_sandbox_images.py``,
                                               ``/etc`` per bot (``_synthetic``)   ``test_sandbox_private_files.py``
signal through the machine's counters          ``/proc`` written per bot           ``test_sandbox_private_files.py``;
(tasks, open files, free memory, loads)        (``_synthetic``); ``sysinfo``       ``benchmarks/covert_channels.py``
                                               answered (``_sysinfo``)
locks, inotify, IPC, ptrace, new namespaces    the filter (``_seccomp``)           ``test_seccomp.py``, ``test_doctor.py``
fork bomb, memory, CPU, disk                   limits; cgroups (root); a user      ``test_hostile.py``, ``test_cgroups_live.py``,
                                               namespace's process cap             ``test_sandbox_lifetime.py``
                                               (``_userns``); tmpfs sizes
outlive its slot or the arena (setsid,         PID namespace's init killed;        ``test_sandbox_lifetime.py``, ``test_hostile.py``,
a frozen bot, a dead worker)                   user namespace or uid or cgroup     ``test_bot_lifecycle.py``, ``test_pool.py``
                                               swept; parent-death signal
                                               (``_spawn``); ``_guardian``
carry a deal to its next rotation in           no process that saw a deal alive    ``test_bot_lifecycle.py``, ``test_pool.py``
memory, or through a live process              when another rotation starts
                                               (``arena.players._pool``)
=============================================  ==================================  ==========================================

Left open, and named by ``arena doctor`` and docs/sandbox.md: the dentry cache and futexes where
images do not serve (not root), the machine-wide inode numbers of pipes and sockets, CPU and
cache contention between bots running at once.

- :mod:`._sandbox`: :class:`Sandbox` (the settings and what is available here), the command
  and the ``preexec`` that confine a process before ``exec``;
- :mod:`._limits`: :class:`Limits`, a bot's resource limits (``setrlimit``);
- :mod:`._detect`: :func:`detect_sandbox`, each protection probed once at start;
- :mod:`._protections`: what ``arena doctor`` says of each protection, active or what it needs;
- :mod:`._open`: :func:`open_sandbox` for ``--sandbox MODE``, the missing-protection warning;
- :mod:`._plan`: a bot's view planned once from what it declares, the one place that decides
  what it sees (:func:`~._plan.plan_view`); everything below reads the plan;
- :mod:`._view`, :mod:`._mounts`: the plan laid out as bubblewrap's arguments, and the uid
  layer's mounts;
- :mod:`._widening`: what no manifest may name, as it would widen a bot's view;
- :mod:`._runtimes`: a bot's runtime (native, the arena's Python, a program of the system), the
  one source of what it sees of the system, and the check of its own files against it;
- :mod:`._libraries`: the system's files a program needs (its ELF objects' libraries);
- :mod:`._synthetic`: the files of ``/etc`` and ``/proc``'s counters written for each bot alone;
- :mod:`._sysinfo`: ``sysinfo(2)`` answered by the arena as an idle machine's;
- :mod:`._python`: what a Python bot sees of the arena's Python;
- :mod:`._farm`: those files laid out once per machine, shown in a few mounts;
- :mod:`._resident`: every file of a view kept in the page cache (and what this machine keeps);
- :mod:`._images`: each folder of a view an EROFS image mounted for one bot alone;
- :mod:`._folders`: what a folder of a view holds, counted as the disk holds it, and the limits
  past which its bot is refused (:class:`ViewRefused`: fail closed);
- :mod:`._uids`: leased unprivileged uids, one per live bot process;
- :mod:`._seccomp`: the system-call filter (classic BPF built in Python);
- :mod:`._loopback`: the empty network namespace the stdout sockets are made in;
- :mod:`._cgroups`, :mod:`._botcgroup`: the machine's cgroup hierarchies, and one bot's
  cgroups (process cap, CPU weight and quota, CPU time, memory, freezer);
- :mod:`._guardian`: a process that empties an arena's cgroups once the arena is gone;
- :mod:`._spawn`: processes forked from threads that live as long as the arena, dying with it;
- :mod:`._userns`: without root, a user namespace of its own per bot (its process cap, its scope).

Imports nothing else of the arena: every other part may use it.
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_botcgroup": ["BotCgroup", "memory_detail"],
    "_cgroups": ["find_cgroups"],
    "_detect": ["detect_sandbox"],
    "_folders": ["ViewRefused"],
    "_limits": ["Limits"],
    "_loopback": ["PrivateLoopback"],
    "_open": ["cgroups_warning", "open_sandbox"],
    "_plan": ["installation", "plan_view", "program_path"],
    "_sandbox": ["Confinement", "Sandbox", "SandboxError"],
    "_seccomp": ["current_arch"],
    "_spawn": ["Child", "spawn"],
    "_sysinfo": ["ListenerInstaller", "answer", "listener_pair", "receive_listener"],
    "_uids": ["UidAllocator", "UidError", "UidLease"],
    "_userns": ["enter_own_namespace", "kill_descendants", "kill_namespace", "namespace_of"],
    "_view": ["shown_paths"],
    "_widening": ["view_widening"],
})
