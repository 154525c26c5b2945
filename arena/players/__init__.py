"""Players: one bot as the arena runs it, from its manifest to its decisions.

- :mod:`._manifest`: bot manifests (``bot.toml``) and commands, :class:`BotSpec`; :mod:`._toml`
  reads every TOML file of the arena with errors that name it;
- :mod:`._process`: starting a bot process in the sandbox, killing its whole group;
- :mod:`._program`: a bot's environment, and whether its program can be found and run;
- :mod:`._reply_socket`: its stdout as a loopback socket the kernel stamps on arrival;
- :mod:`._stderr_log`: its stderr, the tail kept for faults and the head in a log file;
- :mod:`._connection`: the framed msgpack connection over those pipes;
- :mod:`._player`: the handshake and the decision round trip, charged to the clock;
- :mod:`._open_player`: :func:`open_player`, a bot started, greeted, and said goodbye to;
- :mod:`._timecontrol`: the clock (per-move limit, reserve, margin, ponder, in turn);
- :mod:`._faults`: fault kinds, fault records and the fault policy;
- :mod:`._pool`: bot processes kept and reused across games, under the rotation rule;
- :mod:`._startup`: an entrant that cannot start: :class:`StartupError` and its one line;
- ``arena doctor``'s probe bot, started as a tournament starts bots: :mod:`._probe` starts it
  and freezes it in its window; :mod:`._probe_inside` is the program it runs in the sandbox
  (the standard library alone, passed as text), :mod:`._probe_files` that program's attacks on
  files and their caches; :mod:`._probe_targets` what the arena sets up for it to attack and
  tells it to try; :mod:`._probe_judge` the doctor's rows from what it found.

Uses :mod:`arena.sandbox`; knows nothing of matches or tournaments.
"""
