"""One game between connected players.

- :mod:`._match`: :func:`play_match`, the decision loop (engine, clock, fault policy);
- :mod:`._result`: what a game produced, :class:`MatchResult`, and why it ended (:class:`EndReason`);
- :mod:`._single`: one game between bot specs (``arena match``): start, play, stop;
- :mod:`._checkbot`: ``arena check-bot``, the conformance check of one bot;
- :mod:`._replay_file`: the replay file ``arena match --replay`` writes.

Uses :mod:`arena.players` and :mod:`arena.sandbox`; knows nothing of tournaments.
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_checkbot": ["check_bot"],
    "_match": ["MatchSettings", "play_match"],
    "_replay_file": [
        "NotAReplay", "ReplayFileError", "load_replay_file", "replay_from_dict", "save_replay_file",
    ],
    "_rerun": ["Rerun", "RerunError", "departure", "play_rerun"],
    "_result": ["EndReason", "MatchResult"],
    "_single": ["run_single_match"],
})
