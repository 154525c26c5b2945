"""``python -m arena.cli``: the ``arena`` command line."""

from ._app import main

main()
