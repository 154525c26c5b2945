"""The sandbox: what the operating system does to confine one foreign program, and nothing
about games or the protocol.

- :mod:`._sandbox`: :class:`Sandbox` (the settings and what is available here), :class:`Limits`,
  :func:`detect_sandbox`, the ``preexec`` that confines a process before ``exec``;
- :mod:`._open`: :func:`open_sandbox` for ``--sandbox MODE``, the missing-protection warning;
- :mod:`._view`, :mod:`._mounts`: what a bot sees of the filesystem (bubblewrap's arguments);
- :mod:`._widening`: what no manifest may name, as it would widen a bot's view;
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
