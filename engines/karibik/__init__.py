"""Karibik (Antonow & Schliemann, 2004): bribe neutral pirate ships with rum, loot ports,
and steer the treasure chests into your own hideouts.

Rules: ``rules/karibik.md``; bot-facing description: ``protocol/games/karibik.md``.
"""

from engines import Game, Option, Pieces

from ._board import COLOURS as COLOURS
from ._board import Area as Area
from ._board import Board as Board
from ._caribbean import CARIBBEAN as CARIBBEAN
from ._determinize import determinize as determinize
from ._render import render_text as render_text
from ._rules import CARDS as CARDS
from ._rules import SHIPS as SHIPS
from ._state import BOARDS as BOARDS
from ._state import KaribikState as KaribikState
from ._state import bribe_problem as bribe_problem
from ._svg import render_svg as render_svg
from ._view import omniscient_view as omniscient_view

def _render_with(render):
    def show(state, options):
        return render(BOARDS[options["board"]], state)
    return show


GAME = Game(
    id="karibik",
    name="Karibik",
    min_players=2,
    max_players=4,
    options=(
        Option("board", str, "caribbean", "the map to play on", choices=tuple(BOARDS)),
        Option("max_rounds", int, 30, "the game ends after this round if no one reached the target",
               minimum=1, maximum=100),
    ),
    state_class=KaribikState,
    decisions={
        "bribe": "simultaneous: list of 6 card values (-1..5, distinct) for ships Arriba..Fuego; "
                 "the 7th card is the tie-breaker",
        "tiebreak": "simultaneous among tied players: \"reveal\" or \"keep\"",
        "move": "[\"move\", area] | [\"loot\"] | [\"rob\", ship] | [\"exchange\", ship] | "
                "[\"hand\", ship] | [\"deliver\"] | [\"end\"]",
    },
    renderers={"text": _render_with(render_text), "svg": _render_with(render_svg)},
    # The map (2.2 KB of msgpack, most of a request) never changes during a game.
    static_fields=("board",),
    pieces=Pieces(
        codec="envs._karibik:KaribikCodec",
        kept="envs._kept_karibik:KeptKaribik",
        max_length="envs._karibik:max_game_length",
        policies="bots.karibik",
        resampler="engines.karibik:determinize",
        chance_baseline="chance_baseline.json",
        short_options={"max_rounds": 5},
    ),
)

KaribikState.game = GAME
