"""Reference policies for Dead Man's Draw: ``heuristic`` and ``search`` (see ``bots/sdk.py``)."""

from ._heuristic import heuristic as heuristic
from ._search import search as search
