"""HTML pages: the tournament report (``arena report``) and the replay viewer (``arena view``).

One self-contained, offline file each. The arena stays game-agnostic: a game's views are
its engine's observations plus its ``omniscient_view``, and its drawing is the
``viewer.js`` beside the engine.
"""

from ._frames import ViewError as ViewError
from ._frames import game_frames as game_frames
from ._page import REPLAY_BUDGET as REPLAY_BUDGET
from ._page import report_html as report_html
from ._page import viewer_html as viewer_html
from ._page import write_report as write_report
