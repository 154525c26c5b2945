"""Dead Man's Draw (Karty mrtvého muže): push-your-luck pirate card game for 2-8 players.

Rules: ``rules/dead-mans-draw.md``; bot-facing reference: ``protocol/games/dead-mans-draw.md``.
"""

from .._core import Game, Option
from .._pieces import Pieces
from ._cards import CARD_NAME as CARD_NAME
from ._cards import CHARACTERS as CHARACTERS
from ._cards import parse as parse
from ._determinize import determinize as determinize
from ._state import DeadMansDrawState as DeadMansDrawState
from ._view import omniscient_view as omniscient_view

GAME = Game(
    id="dead-mans-draw",
    name="Dead Man's Draw",
    min_players=2,
    max_players=8,
    options=(
        Option("characters", bool, True, "deal 2 characters to each player, who secretly keeps 1"),
        Option("strange_waters", bool, False, "variant: bust on a card of the same value, not suit"),
        Option("mermaid_effect", bool, False,
               "variant: Mermaids 2-7 that move an earlier card to the end and re-trigger it; adds Siren"),
        Option("party", bool, False, "Pirate Party: two sets of cards and characters (implied for 5-8 players)"),
    ),
    state_class=DeadMansDrawState,
    decisions={
        "character": 'a character id from your two dealt characters, e.g. "seer"',
        "locker": "the seat (int) of the opponent your Davy Jones' Locker targets",
        "draw": '"draw" or "collect"',
        "hook": 'the suit letter of one of your stacks, e.g. "K"',
        "cannon": '[seat, suit letter]: the stack whose top card is discarded',
        "sword": '[seat, suit letter]: the opponent stack whose top card enters the play area',
        "map": 'a card name among the revealed discard cards, e.g. "S2"',
        "oracle": '"place" (the revealed top card) or "collect"',
        "mermaid": '["move", row index] or (sir Lovesword) ["bank", row index]',
        "plunder": "[seat, suit letter]: the opponent stack whose top card you take as bonus",
    },
    pieces=Pieces(
        codec="envs._dead_mans_draw:DeadMansDrawCodec",
        kept="envs._kept_dmd:KeptDeadMansDraw",
        max_length="envs._dead_mans_draw:max_game_length",
        policies="bots.dead_mans_draw",
        resampler="engines.dead_mans_draw:determinize",
        chance_baseline="chance_baseline.json",
    ),
)
