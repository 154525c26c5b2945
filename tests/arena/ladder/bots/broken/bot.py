"""Test bot for the ladder: dies at once, with a message on stderr."""

import sys

sys.exit("broken bot: cannot start (on purpose)")
