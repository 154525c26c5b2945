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
  :mod:`._pooled_process`: one of them, in a task of its own; :mod:`._open_pool`:
  :func:`open_bot_pool`, a pool opened and, on exit, every process of it shut down;
- :mod:`._startup`: an entrant that cannot start: :class:`StartupError` and its one line;
- ``arena doctor``'s probe bot, started as a tournament starts bots: :mod:`._probe` starts it
  and freezes it in its window; :mod:`._probe_inside` is the program it runs in the sandbox
  (the standard library alone, passed as text), :mod:`._probe_files` that program's attacks on
  files and their caches; :mod:`._probe_targets` what the arena sets up for it to attack and
  tells it to try; :mod:`._probe_judge` the doctor's rows from what it found.

Uses :mod:`arena.sandbox`; knows nothing of matches or tournaments.
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_faults": [
        "BotFault", "FAULT_SETTING", "FAULT_SETTINGS", "Fault", "FaultKind", "FaultPolicy", "between_games",
    ],
    "_manifest": [
        "BotSpec", "ManifestError", "check_name", "load_manifest", "log_name", "manifest_from_dict",
        "resolve_bot",
    ],
    "_open_player": ["open_player"],
    "_open_pool": ["open_bot_pool"],
    "_player": ["Player"],
    "_pool": ["BotPool"],
    "_probe": ["run_probe"],
    "_probe_judge": ["channels_left", "judge"],
    "_process": ["BotProcess", "VIEW_REFUSED", "scope_of"],
    "_program": ["bot_environment", "program_exists"],
    "_settings": ["again_flags"],
    "_startup": ["StartupError"],
    "_stderr_log": ["StderrLog"],
    "_timecontrol": ["GameClock", "TIME_SETTING", "TIME_SETTINGS", "TimeControl", "time_again"],
    "_toml": ["KIND_NAMES", "describe_value", "read_toml"],
})
