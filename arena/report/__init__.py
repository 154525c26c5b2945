"""Reports: the HTML pages (the tournament report, ``arena report``, and the replay viewer,
``arena view``), the text tables (``arena standings``, exports) and replays as text
(``arena replay``).

One self-contained, offline page each. The arena stays game-agnostic: a game's views are
its engine's observations plus its ``omniscient_view``, and its drawing is the
``viewer.js`` beside the engine.

The names below are loaded on first use: the text tables and replays do not pay for the
HTML page's modules.
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_adaptive": ["adaptive_lines", "adaptive_state"],
    "_charts": ["error_bar_chart"],
    "_chunks": ["pack_chunk"],
    "_frames": ["ViewError", "game_frames"],
    "_luck": ["LuckTally", "records_with_luck"],
    "_meta": ["viewer_meta"],
    "_page": [
        "REPLAY_BUDGET", "game_payload", "report_html", "stored_meta", "viewer_css", "viewer_html",
        "viewer_scripts", "write_report",
    ],
    "_replays": ["describe_replay", "is_database", "list_stored_games", "load_replay"],
    "_steps": ["pack_steps"],
    "_tables": [
        "always_faulting", "crosstable", "export_records", "fault_counts", "interval_label", "records_of",
        "standings_csv", "standings_json", "standings_of", "standings_table",
    ],
})
