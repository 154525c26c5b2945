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
- :mod:`._probe`: ``arena doctor``'s probe bot, started as a tournament starts bots.

Uses :mod:`arena.sandbox`; knows nothing of matches or tournaments.
"""
