"""The ladder (``arena ladder``): submitted bots, continuous matchmaking, ratings and a web page.

Modules: ``_archive`` (unpacking submitted archives safely), ``_intake`` (vet a submission),
``_build`` (its build step, its folder watched), ``_tree`` (walking and removing a submitted
folder, bounded and iterative), ``_vetting`` (the server's queue of submissions),
``_matchmaking`` (which tables to play next), ``_runner`` (vetting, play and fits as tasks)
with ``_executor`` (the workers that play a stretch, the games they take) and ``_faulting``
(withdrawal and the bench for faults in games), ``_logs`` and ``_faulttext`` (what the ladder
keeps of bots' stderr, bounded per version and per author), the database (``_store``:
``_schema``, ``_submissions``, ``_games``), and the server pieces (``_upload``: reading an
upload, token first). Importing this
package imports nothing heavy: the web stack (Starlette, Hypercorn) is imported only by the
server modules that need it.
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_app": ["serve_ladder"],
    "_config": ["check_author", "load_ladder"],
    "_rerun": ["ladder_rerun"],
    "_serving": ["start_serving", "until_interrupted"],
    "_store": ["LadderStore"],
})
