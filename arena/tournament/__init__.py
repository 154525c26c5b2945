"""Tournaments: from the tournament file to every game stored.

- :mod:`._config` (with :mod:`._ranges`, every number's allowed range): the tournament file;
- :mod:`._schedule`: the deterministic schedule of games (duplicate blocks, seeds, keys);
- :mod:`._adaptive`: an adaptive tournament's rounds, each chosen from the stored results of
  the rounds before it, until its question is decided;
- :mod:`._extend`: growing a played tournament (rounds, entrants, candidates);
- :mod:`._store`: the results database (SQLite), :mod:`._database`: a tournament's database
  made for its configuration and read back, :mod:`._access`: opened read-only, or why it
  cannot be written;
- :mod:`._runner`: :class:`TournamentRunner`, the games missing from the store played
  concurrently; :mod:`._handout`: which game goes to which worker (rotation-major windows);
- :mod:`._play`: one scheduled game, shared by the runner and the workers;
- :mod:`._workers`: worker processes on this machine; :mod:`._dask`: on a Dask cluster.

Uses :mod:`arena.match`, :mod:`arena.players`, :mod:`arena.sandbox` and :mod:`arena.ratings`
(the SPRT stop, the adaptive looks and rounds).
"""
