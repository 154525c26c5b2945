"""Treasures & Precious: Opito Bay (Piotr Milewski), for 2-4 players.

Rules: ``rules/opito-bay.md``; bot-facing documentation: ``protocol/games/opito-bay.md``.
"""

from engines import Game, Option, Pieces

from ._cards import DECK as DECK
from ._cards import JOKER as JOKER
from ._determinize import determinize as determinize
from ._observation import observe as observe
from ._state import MAX_DEALS as MAX_DEALS
from ._state import OpitoState as OpitoState
from ._table import Table as Table
from ._table import deal_points as deal_points
from ._table import live_nodes as live_nodes
from ._table import score_nodes as score_nodes
from ._view import omniscient_view as omniscient_view

GAME = Game(
    id="opito-bay",
    name="Treasures & Precious: Opito Bay",
    min_players=2,
    max_players=4,
    options=(
        Option("target", int, 50_000, "the game ends after the deal in which a total first exceeds this",
               minimum=1),
        Option("deals", int, 0, "play exactly this many deals (1 = single-deal game); 0 = play to the target",
               minimum=0, maximum=MAX_DEALS),
    ),
    state_class=OpitoState,
    decisions={
        "play": 'a card from your hand, e.g. "8D"; a Joker as "X" + rank, e.g. "X3", "XT", "XK"',
        "discard": 'a card from your hand, e.g. "7C" or "X" (only when no card has a legal play)',
        "target": "the id (int) of the table card the pending 3, 7 or King goes on",
        "player": "the seat (int) receiving the pending Queen, or hit by the pending Jack",
        "swap": "the id (int) of your treasure the pending 9 swaps",
        "swap_with": "the id (int) of another player's treasure to swap it with",
        "spyglass": 'the looked-at cards in their new order, top first, e.g. ["QH", "X", "4C"]',
    },
    pieces=Pieces(
        codec="envs._opito_bay:OpitoBayCodec",
        kept="envs._kept_opito:KeptOpitoBay",
        max_length="envs._opito_bay:max_game_length",
        policies="bots.opito_bay",
        resampler="engines.opito_bay:determinize",
        chance_baseline="chance_baseline.json",
        short_options={"deals": 1},
    ),
)
