"""Tournaments: from the tournament file to every game stored.

- :mod:`._config` (with :mod:`._ranges`, every number's allowed range): the tournament file;
- :mod:`._schedule`: the deterministic schedule of games (duplicate blocks, seeds, keys);
- :mod:`._adaptive`: an adaptive tournament's rounds, each chosen from the stored results of
  the rounds before it, until its question is decided;
- :mod:`._extend`: growing a played tournament (rounds, entrants, candidates);
- :mod:`._store`: the results database (SQLite), :mod:`._atomic_create`: its file made whole or
  not at all, :mod:`._luck_cache`: the chance correction's luck kept in it, :mod:`._database`:
  a tournament's database made for its configuration and read back, :mod:`._access`: opened
  read-only, or why it cannot be written;
- :mod:`._runner`: :class:`TournamentRunner`, the games missing from the store played
  concurrently; :mod:`._handout`: which game goes to which worker (rotation-major windows);
- :mod:`._play`: one scheduled game, shared by the runner and the workers;
- :mod:`._workers`: worker processes on this machine, as the coordinator runs them; :mod:`._dask`:
  on a Dask cluster; :mod:`._worker_process`: the worker process's program;
  :mod:`._worker_setup`: what a worker is given; :mod:`._frames`: the messages' framing.

Uses :mod:`arena.match`, :mod:`arena.players`, :mod:`arena.sandbox` and :mod:`arena.ratings`
(the SPRT stop, the adaptive looks and rounds).
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_access": ["write_problem"],
    "_adaptive": ["plan_of"],
    "_config": [
        "ConfigError", "EXECUTORS", "TournamentConfig", "config_from_dict", "load_config", "parse_listen",
    ],
    "_dask": ["DaskWorkers"],
    "_database": ["config_of_store", "entrant_row", "open_store"],
    "_extend": ["extend_config"],
    "_handout": ["GameSource", "WindowPlan"],
    "_luck_cache": ["cache_luck", "cached_luck"],
    "_metastore": ["MetaStore"],
    "_ranges": ["OPTIONS", "RANGES", "parse_option"],
    "_rerun": ["tournament_rerun"],
    "_runner": ["Progress", "TournamentRunner", "log_dir_of"],
    "_schedule": ["GAME_SEED_BITS", "ScheduleSpec", "ScheduledGame", "bot_seeds_of", "keyed_seed", "new_key"],
    "_store": ["ResultsStore", "StoreError", "StoredGame"],
    "_worker_setup": ["Setup", "sandbox_fields"],
    "_workers": ["Workers", "default_workers"],
})
