"""``arena play``: a person plays against bots in the browser, in a real arena match.

- :mod:`._human`: the person's seat (:class:`HumanSeat`, what their pages show, their
  answers) and the match's player for it (:class:`HumanPlayer`, asked like a bot);
- :mod:`._session`: the games of a session, one after another, kept like a tournament's
  (a results database, or replay files);
- :mod:`._app`: the Starlette app behind a token gate (the page, the WebSocket);
- :mod:`._page`: the page, on the report's viewer code (``assets/play.js``, ``play.css``);
- :mod:`._serve`: the bots, the games and Hypercorn in one trio loop.

Uses :mod:`arena.match`, :mod:`arena.players`, :mod:`arena.tournament` (the store) and
:mod:`arena.report` (the viewer); needs the ``ladder`` extra (Starlette, Hypercorn).
"""

import lazy_loader

#: What the other parts may use of this one, by module. A name is imported when first used:
#: a face loads nothing itself, so that a command imports only what it runs.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submod_attrs={
    "_serve": ["serve_play"],
    "_session": ["PlaySetup"],
})
