"""The adapters show a seat nothing its wire observation does not: the engines' leak test
(``tests/engines/_harness.check_information``: resample what a seat cannot know, its view must
not change) run with the adapters' strings, tensors and the seat-free render as extra views."""

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="pip install -e '.[openspiel]'")
pytest.importorskip("pettingzoo", reason="pip install -e '.[pettingzoo]'")
import envs.openspiel as adapter  # noqa: E402
from engines import get_game  # noqa: E402
from envs._games import codec  # noqa: E402
from envs.pettingzoo import seat_free_view  # noqa: E402

from ..engines._harness import check_information  # noqa: E402
from ._every_game import others, skip_without_codec  # noqa: E402

CASES = [("dead-mans-draw", 2, {}), ("dead-mans-draw", 4, {"mermaid_effect": True}),
         ("opito-bay", 2, {"deals": 1}), ("opito-bay", 4, {"deals": 1}),
         ("karibik", 2, {}), ("karibik", 4, {"max_rounds": 6})]
CASES += [(game_id, players, {}) for game_id, _, players in others({game_id for game_id, _, _ in CASES})]


def adapter_views(game_id, players, options):
    game = pyspiel.load_game(game_id.replace("-", "_"), {"players": players, "turn_based": False, **options})
    turn_based = pyspiel.load_game(game_id.replace("-", "_"), {"players": players, **options})
    resolved = get_game(game_id).resolve_options(options)
    shared = codec(game_id, players, resolved)

    def openspiel_observation_string(state, seat):
        return adapter.state_from_engine(game, state).observation_string(seat)

    def openspiel_information_state_string(state, seat):
        return adapter.state_from_engine(game, state).information_state_string(seat)

    def openspiel_observation_tensor(state, seat):
        return adapter.state_from_engine(game, state).observation_tensor(seat)

    def openspiel_information_state_tensor(state, seat):
        return adapter.state_from_engine(game, state).information_state_tensor(seat)

    def turn_based_strings(state, seat):
        wrapped = adapter.state_from_engine(turn_based, state, first=seat)
        return (wrapped.observation_string(seat), wrapped.information_state_string(seat),
                wrapped.information_state_tensor(seat))

    def pettingzoo_observation(state, seat):  # what envs.pettingzoo's observe() returns
        return shared.tensor(state.observation(seat)).tobytes()

    def seat_free_render(state, seat):  # the same for every seat's resample
        return seat_free_view(shared, state, resolved)

    return [openspiel_observation_string, openspiel_information_state_string, openspiel_observation_tensor,
            openspiel_information_state_tensor, turn_based_strings, pettingzoo_observation, seat_free_render]


@pytest.mark.parametrize("game_id,players,options", CASES)
def test_adapter_views_hide_what_a_seat_may_not_know(game_id, players, options):
    skip_without_codec(game_id)
    check_information(get_game(game_id), players, seed=8, options=options, samples=8, games=1,
                      views=adapter_views(game_id, players, options))


def test_the_guard_catches_a_view_that_leaks():
    game = pyspiel.load_game("opito_bay", {"players": 2, "deals": 1})

    def leaky_to_string(state, seat):  # str(state) holds every hand and the library's order
        return str(adapter.state_from_engine(game, state))

    with pytest.raises(AssertionError, match="leaky_to_string of seat"):
        check_information(get_game("opito-bay"), 2, seed=8, options={"deals": 1}, samples=4, games=1,
                          views=[leaky_to_string])
