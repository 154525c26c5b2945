"""The command line, ``arena``: the typer app (:mod:`._app`, the core commands) and one module per
command group (:mod:`._tournament`, :mod:`._ratings`, :mod:`._report`, :mod:`._ladder`), the
helpers they share (:mod:`._common`: options, one-line errors, exit codes; :mod:`._width`:
tables that fit the terminal) and the live progress display (:mod:`._progress`). The work of
three core commands, imported only when they run: :mod:`._board` (``arena board``),
:mod:`._check_bot` (``arena check-bot``), :mod:`._doctor` (``arena doctor``).

The only part of the arena that prints to the terminal, parses options or exits; nothing
outside it imports it. The console script is :func:`main`.
"""

from ._app import main as main
