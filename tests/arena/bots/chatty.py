"""The random bot, but it writes a line to stderr first (for ``--stderr DIR`` tests)."""

import runpy
import sys

print("chatty: starting up", file=sys.stderr, flush=True)
runpy.run_module("bots.random", run_name="__main__")
