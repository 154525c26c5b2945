"""``undo_action`` on the OpenSpiel states: after ``apply_action(a)`` and ``undo_action(p, a)``
a state is the one before, in everything a Python caller can read (the view, the observations
and information states, the legal actions, the history, what it serializes to)."""

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="pip install -e '.[openspiel]'")
import envs.openspiel as adapter  # noqa: E402

from engines import get_game  # noqa: E402

from ._every_game import others, skip_without_codec  # noqa: E402

GAMES = [("dead_mans_draw", {"players": 2}), ("dead_mans_draw", {"players": 3, "mermaid_effect": True}),
         ("opito_bay", {"players": 2}), ("opito_bay", {"players": 4}),
         ("karibik", {"players": 2, "max_rounds": 2}), ("karibik", {"players": 3, "max_rounds": 1})]
#: (at its most players: a short game holds few steps to undo)
GAMES += [(short, {"players": get_game(game_id).max_players}) for game_id, short, _ in others({name for name, _ in GAMES})]


def snapshot(state):
    """Everything a Python caller reads of ``state``, serialization included."""
    players = range(state.num_players())
    seen = {"str": str(state), "player": state.current_player(), "history": state.history(),
            "history_str": state.history_str(), "move_number": state.move_number(),
            "full_history": [(entry.player, entry.action) for entry in state.full_history()],
            "initial": state.is_initial_state(), "terminal": state.is_terminal(), "returns": state.returns(),
            "serialized": state.serialize().split("\n__dict__=")[0]}
    if not state.is_chance_node():
        seen["legal"] = [state.legal_actions(player) for player in players]
        seen["observations"] = [(state.observation_string(player), state.observation_tensor(player),
                                 state.information_state_string(player), state.information_state_tensor(player))
                                for player in players]
    else:
        seen["chance"] = state.chance_outcomes()
    game = state.get_game()
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state)),
                 pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]):
        assert (str(copy), copy.history(), copy.move_number()) == (seen["str"], seen["history"], seen["move_number"])
    return seen


@pytest.mark.parametrize("name,params", GAMES)
def test_undo_gives_back_the_state_before(name, params):
    skip_without_codec(name)
    game = pyspiel.load_game(name, params)
    rng = random.Random(5)
    state = game.new_initial_state()
    undone = 0
    while not state.is_terminal():
        if state.is_chance_node():
            player, action = pyspiel.PlayerId.CHANCE, rng.randrange(256)
        else:
            player = state.current_player()
            action = rng.choice(state.legal_actions())
        if undone < 12 and rng.random() < 0.25:  # an engine step's undo replays the game: a few
            before = snapshot(state)
            after = state.child(action)
            state.apply_action(action)
            state.undo_action(player, action)
            assert snapshot(state) == before
            state.apply_action(action)  # and the same move again: the state it gave the first time
            assert snapshot(state) == snapshot(after)
            undone += 1
        else:
            state.apply_action(action)
    assert undone > 3


def test_undo_takes_back_only_the_last_move():
    game = pyspiel.load_game("opito_bay", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="nothing"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 0)
    for byte in (0, 0, 1, 7):
        state.apply_action(byte)
    with pytest.raises(pyspiel.SpielError, match="does not undo the last move"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 8)
    first = state.legal_actions()[0]
    player = state.current_player()
    state.apply_action(first)
    state.undo_action(player, first)
    state.undo_action(pyspiel.PlayerId.CHANCE, 7)  # and the seed byte before it
    assert state.is_chance_node() and state.history() == [0, 0, 1]
    state.apply_action(7)
    assert state.legal_actions()[0] == first


def test_an_undone_state_copies_and_plays_on():
    game = pyspiel.load_game("karibik", {"players": 2, "max_rounds": 1, "seed": 4})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    action = rng.choice(state.legal_actions())
    state.apply_action(action)
    state.undo_action(player, action)
    history = state.history()
    copy = state.clone()
    assert copy.history() == history and str(copy) == str(state)
    child = state.child(action)
    assert child.history() == history + [action] and state.history() == history
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert len(copy.history()) == copy.move_number() > len(history)


def test_what_cannot_be_undone_says_why():
    simultaneous = pyspiel.load_game("karibik", {"players": 2, "turn_based": False, "seed": 1})
    state = simultaneous.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="turn-based"):
        state.undo_action(0, 0)
    game = pyspiel.load_game("opito_bay", {"players": 2, "seed": 3})
    wrapped = adapter.state_from_engine(game, adapter.engine_state(game.new_initial_state()).clone())
    player = wrapped.current_player()
    action = wrapped.legal_actions()[0]
    wrapped.apply_action(action)
    with pytest.raises(pyspiel.SpielError, match="set from outside"):
        wrapped.undo_action(player, action)
