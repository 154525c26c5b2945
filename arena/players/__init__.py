"""Players: one bot as the arena runs it, from its manifest to its decisions.

- :mod:`._manifest`: bot manifests (``bot.toml``) and commands, :class:`BotSpec`; :mod:`._toml`
  reads every TOML file of the arena with errors that name it;
- :mod:`._process`: starting a bot process in the sandbox (its stdin pipe and the kernel-
  stamped stdout socket, its stderr log), killing its whole group;
- :mod:`._connection`: the framed msgpack connection over those pipes;
- :mod:`._player`: the handshake and the decision round trip, charged to the clock;
- :mod:`._timecontrol`: the clock (per-move limit, reserve, margin, ponder, in turn);
- :mod:`._faults`: fault kinds, fault records and the fault policy;
- :mod:`._pool`: bot processes kept and reused across games, under the rotation rule;
- ``arena doctor``'s probe bot, started as a tournament starts bots: :mod:`._probe` starts it
  and freezes it in its window; :mod:`._probe_inside` is the program it runs in the sandbox
  (the standard library alone, passed as text); :mod:`._probe_targets` what the arena sets up
  for it to attack and tells it to try; :mod:`._probe_judge` the doctor's rows from what it found.

Uses :mod:`arena.sandbox`; knows nothing of matches or tournaments.
"""
