"""One game between connected players.

- :mod:`._match`: :func:`play_match`, the decision loop (engine, clock, fault policy);
- :mod:`._result`: what a game produced, :class:`MatchResult`, and why it ended (:class:`EndReason`);
- :mod:`._single`: one game between bot specs (``arena match``): start, play, stop;
- :mod:`._checkbot`: ``arena check-bot``, the conformance check of one bot;
- :mod:`._replay_file`: the replay file ``arena match --replay`` writes.

Uses :mod:`arena.players` and :mod:`arena.sandbox`; knows nothing of tournaments.
"""
