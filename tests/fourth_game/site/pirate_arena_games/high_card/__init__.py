"""High Card, the tests' fourth game: a tiny trick game for 2-4 players (rules: ``_state.py``;
bot-facing page: ``tests/fourth_game/protocol/games/high-card.md``).

It lives outside the product, in ``tests/fourth_game/site/pirate_arena_games/``, which the
tests' conftest puts on ``sys.path``: ``engines`` then finds this folder as it finds its own
(as ``engines.high_card``), and every generic suite runs it with no table naming it. Beside
its rules: ``viewer.js`` (its drawing and words, for reports and the play page). Its
descriptor names a codec and an OpenSpiel bound (``tests/fourth_game/_envs.py``: the
environment suites run it too) and a chance resampler; the pieces it lacks (a kept tensor,
policies) are what the suites and bots must do without or skip, saying so.
"""

from engines import Game, Option, Pieces

from ._state import HighCardState as HighCardState
from ._state import determinize as determinize
from ._state import omniscient_view as omniscient_view

GAME = Game(
    id="high-card",
    name="High Card",
    min_players=2,
    max_players=4,
    options=(Option("hand", int, 3, "cards dealt to each player, one trick each", minimum=1, maximum=6),),
    state_class=HighCardState,
    decisions={"play": "a card (int) from your hand"},
    pieces=Pieces(
        codec="tests.fourth_game._envs:HighCardCodec",
        max_length="tests.fourth_game._envs:max_game_length",
        resampler="engines.high_card:determinize",
    ),
)
