"""The HTML report and viewer pages, without a browser: frames decode to exactly each
seat's observation, the page holds the tournament's numbers, the commands' errors."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from arena.report import REPLAY_BUDGET, ViewError, game_frames, report_html, viewer_html
from arena.report._chunks import from_text, pack_chunk, to_text, transpose, unpack_chunk, untranspose
from arena.report._frames import delta, patch, views_at
from arena.report._page import game_payload, stored_meta
from arena.report._steps import canonical, final_check, game_steps, pack_steps, rules_script, unpack_steps
from arena.tournament._store import ResultsStore
from engines import Replay

from ._report_fixtures import SHORT, make_database, play_random
from .test_tournament import arena

GAMES = sorted(SHORT)
#: the games whose engine has a JavaScript twin (rules.js): their pages carry steps, not frames
TWINS = [game_id for game_id in GAMES if rules_script(game_id) is not None]


def _plain(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("old,new", [
    ({}, {"a": 1}), ({"a": 1, "b": 2}, {"a": 1}), ({"a": [1, 2, 3]}, {"a": [1, 2]}),
    ({"a": [1, 2]}, {"a": [1, 2, 3, 4]}), ({"a": {"x": [1, {"y": 2}]}}, {"a": {"x": [1, {"y": 3}]}}),
    ({"a": [1]}, {"a": []}), ({"a": []}, {"a": [5]}), ({"a": 1}, {"a": True}), ({"a": None}, {"a": {"k": 1}}),
])
def test_patch_undoes_delta(old, new):
    change = delta(old, new)
    assert patch(old, change) == new
    assert json.loads(json.dumps(change)) == change  # JSON-safe: the browser applies the same patch


@pytest.mark.parametrize("old,new,splices", [
    (["A2", "C2", "K4", "M2"], ["A2", "C2", "H5", "K4", "M2"], [[2, 0, "H5"]]),
    (list("abcdefgh"), list("xabcdfgyh"), [[0, 0, "x"], [4, 1], [7, 0, "y"]]),
])
def test_a_card_put_into_a_pile_is_one_splice(old, new, splices):
    change = delta({"pile": old}, {"pile": new})
    assert change == {"pile": {"~": splices}}
    assert patch({"pile": old}, change) == {"pile": new}


_items = st.one_of(st.integers(0, 5), st.booleans(), st.none(), st.sampled_from(["A2", "H5", "K4"]),
                   st.lists(st.integers(0, 3), max_size=3))


@settings(max_examples=100, deadline=None)
@given(st.lists(_items, max_size=12), st.lists(_items, max_size=12))
def test_patch_undoes_delta_of_any_lists(old, new):
    change = delta({"x": old}, {"x": new})
    assert _typed(patch({"x": old}, change)) == _typed({"x": new})
    assert json.loads(json.dumps(change)) == change


def _typed(value):
    return json.dumps(value)  # True and 1 differ here, not under ==


@pytest.mark.parametrize("old,new", [
    ([1, 1, True, 0], [1, True, True, 0]), ({"k": [0, 2]}, {"k": [False, 2]}), ([{"a": 1}], [{"a": 1.0}]),
])
def test_a_list_or_dict_equal_under_python_eq_but_not_in_json_is_a_change(old, new):
    """1 == True (and 1 == 1.0) inside a list or dict, too: the frames must still carry it."""
    assert _typed(patch({"x": old}, delta({"x": old}, {"x": new}))) == _typed({"x": new})


def test_delta_of_a_pile_that_shrinks_at_its_end_is_one_entry():
    assert delta({"pile": list(range(40))}, {"pile": list(range(39))}) == {"pile": {"#": [39]}}
    assert delta({"same": [1, 2]}, {"same": [1, 2]}) == {}


@pytest.mark.parametrize("game_id", GAMES)
def test_frames_hold_every_seat_observation_and_the_omniscient_view_exactly(game_id):
    replay = play_random(game_id)
    frames = game_frames(replay)
    assert len(frames) == len(replay.steps) + 1
    state = engines.get_game(game_id).new_state(replay.num_players, replay.seed, replay.options)
    omniscient = engines.game_package(game_id).omniscient_view
    public: dict = {}
    hidden: dict = {}
    private = [{} for _ in range(replay.num_players)]
    for number, frame in enumerate(frames):
        public, hidden = patch(public, frame["p"]), patch(hidden, frame["h"])
        private = [patch(mine, change) for mine, change in zip(private, frame["s"])]
        for seat in range(replay.num_players):
            assert _plain({**public, **private[seat]}) == _plain(state.observation(seat)), (number, seat)
            assert not public.keys() & private[seat].keys()
        assert _plain(hidden) == _plain(omniscient(state))
        assert frame["w"] == list(state.acting)
        if number < len(replay.steps):
            step = replay.steps[number]
            assert frames[number + 1]["a"] == [[seat, state.decision(seat), _plain(action)]
                                               for seat, action in step.items()]
            state.apply(step)
    assert views_at(frames, len(frames) - 1) == (public, hidden, private)


def test_a_replay_that_breaks_the_rules_is_a_view_error():
    replay = play_random("dead-mans-draw")
    broken = Replay(replay.game, replay.num_players, replay.seed, replay.options,
                    [dict(step) for step in replay.steps])
    broken.steps[3] = {seat: "no such action" for seat in broken.steps[3]}
    with pytest.raises(ViewError, match="^replay diverges at step 4: player"):
        game_frames(broken)


@pytest.mark.parametrize("game_id", GAMES)
def test_report_holds_standings_matrix_progress_faults_and_every_game(tmp_path, game_id):
    database = make_database(tmp_path / "t.db", game_id)
    store = ResultsStore.open(database)
    try:
        stored = list(store.games())
        page, figures = report_html(store, n_boot=20)
    finally:
        store.close()
    players, _, games = SHORT[game_id]
    assert figures == {"games": games, "embedded": games, "replay_bytes": figures["replay_bytes"], "diverged": 0}
    for section in ("standings", "head-to-head", "progress", "faults", "games"):
        assert f'<section id="{section}">' in page
    kind = "steps" if game_id in TWINS else "frames"
    assert page.count(f'<script type="application/x-{kind}"') == 2  # the games with faults, the others
    assert page.count("<script type=\"application/x-") == 2
    assert ("class PyRandom" in page) == (game_id in TWINS)
    data = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page).group(1))
    assert [row[0] for row in data["games"]] == [game.key for game in stored]
    # every game's replay is in a chunk, at its position there, exactly as game_payload makes it
    unpack = unpack_steps if game_id in TWINS else unpack_chunk
    chunks = {int(number): unpack(text) for number, text in
              re.findall(r'<script type="application/x-\w+" id="c(\d+)">([^<]*)</script>', page)}
    assert sorted((row[7], row[8]) for row in data["games"]) == sorted(
        (number, position) for number, members in chunks.items() for position in range(len(members)))
    store = ResultsStore.open(database)
    try:
        for row, game in zip(data["games"], stored):
            replay = Replay.from_dict(store.replay(game.key))
            payload = _plain(game_payload(replay, stored_meta(store, game, replay)))
            if game_id in TWINS:  # the steps come back as the replay has them
                payload.pop("static", None)
                payload["steps"] = _plain(replay.as_dict()["steps"])
            assert chunks[row[7]][row[8]] == payload
    finally:
        store.close()
    assert f"<h2>Faults ({games // 3})</h2>" in page
    assert ("PL Elo" in page) == (players > 2)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched


def test_report_embeds_faulty_games_first_within_the_budget(tmp_path):
    database = make_database(tmp_path / "t.db", "dead-mans-draw", fault_every=2)
    store = ResultsStore.open(database)
    try:
        full, all_in = report_html(store, n_boot=5)
        first = re.search(r'<script type="application/x-frames" id="c0">[^<]*</script>', full).group(0)
        page, cut = report_html(store, replay_budget=len(first) + 1, n_boot=5)
        _, nothing = report_html(store, replay_budget=len(first) - 1, n_boot=5)
    finally:
        store.close()
    assert all_in["embedded"] == 6
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page).group(1))
    # the first chunk holds the games with a fault (the 2nd, 4th and 6th), the budget no more
    assert [len(row) > 7 for row in data["games"]] == [False, True] * 3
    assert all(row[5] == ["timeout"] for row in data["games"][1::2])
    assert (cut["embedded"], cut["replay_bytes"]) == (3, len(first))
    assert (nothing["embedded"], nothing["replay_bytes"]) == (0, 0)
    assert REPLAY_BUDGET == 18_500_000


def test_viewer_page_embeds_one_game_and_the_renderer_and_rules_of_its_game():
    page = viewer_html(play_random("karibik"), {"bots": ["a", "b", "c"]})
    assert page.count('type="application/x-steps"') == 1 and 'type="application/x-frames"' not in page
    assert 'ArenaRenderers["karibik"]' in page and 'ArenaRenderers["opito-bay"]' not in page
    assert 'ArenaRules["karibik"]' in page and page.index("class PyRandom") < page.index('ArenaRules["karibik"] =')
    page = viewer_html(play_random("dead-mans-draw"), {"bots": ["a", "b"]})
    assert page.count('type="application/x-frames"') == 1 and "PyRandom" not in page


def test_report_and_view_commands(tmp_path):
    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    out = arena("report", str(database), "-o", str(tmp_path / "r.html"), "--bootstrap", "10").stdout
    assert re.fullmatch(r"wrote .*r\.html: 6 games, 6 replays embedded, 0\.\d MB\n", out)
    out = arena("view", str(database), "--game", "g000001", "-o", str(tmp_path / "g.html")).stdout
    assert out == f"wrote {tmp_path / 'g.html'}: dead-mans-draw, {_steps(database, 'g000001')} steps\n"
    replay = tmp_path / "m.json"
    arena("match", "opito-bay", "python -m bots.random", "python -m bots.random", "--option", "deals=1",
          "--replay", str(replay), "--sandbox", "none")
    assert arena("view", str(replay), "-o", str(tmp_path / "m.html")).stdout.startswith("wrote ")
    assert 'ArenaRenderers["opito-bay"]' in (tmp_path / "m.html").read_text()


def test_view_frames_draws_a_twin_game_from_the_engines_own_views(tmp_path):
    # The way to see a game that its JavaScript rules cannot re-play (the viewer says so).
    database = make_database(tmp_path / "k.db", "karibik")
    page = tmp_path / "g.html"
    arena("view", str(database), "--game", "g000001", "--frames", "-o", str(page))
    text = page.read_text()
    assert 'type="application/x-steps"' not in text
    chunk = re.search(r'<script type="application/x-frames" id="c0">([^<]*)</script>', text).group(1)
    [game] = unpack_chunk(chunk)
    assert game["frames"] == json.loads(json.dumps(game_frames(Replay.from_dict(_replay(database, "g000001")))))


def _replay(database, key):
    store = ResultsStore.open(database)
    try:
        return store.replay(key)
    finally:
        store.close()


def _steps(database, key):
    return len(_replay(database, key)["steps"])


@pytest.mark.parametrize("args,message", [
    (["report", "{db}", "-o", "/no/such/dir/r.html"],
     "error: /no/such/dir/r.html: cannot write (folder /no/such/dir does not exist)\n"),
    (["report", "{tmp}/none.db", "-o", "{tmp}/r.html"], "error: {tmp}/none.db: no such database\n"),
    (["view", "{db}", "-o", "{tmp}/g.html"],
     "error: {db} is a results database; name the game with --key KEY (keys: `arena replay {db}`)\n"),
    (["view", "{db}", "--game", "nope", "-o", "{tmp}/g.html"],
     "error: {db}: no game with key 'nope'; keys: `arena replay {db}`\n"),
    (["view", "{tmp}/r.json", "--key", "abc", "-o", "{tmp}/g.html"],
     "error: {tmp}/r.json is not a results database: --key names a game of a database (for a replay file, "
     "leave --key out)\n"),
    (["report", "{db}", "--replay-mb", "-1", "-o", "{tmp}/r.html"],
     "error: --replay-mb must be a number of MB >= 0 (0: no replays embedded), got -1\n"),
    (["report", "{db}", "--replay-mb", "nan", "-o", "{tmp}/r.html"],
     "error: --replay-mb must be a number of MB >= 0 (0: no replays embedded), got nan\n"),
    (["report", "{db}", "--bootstrap", "0", "-o", "{tmp}/r.html"],
     "error: --bootstrap must be a number of replicates >= 1, got 0\n"),
    (["view", "{tmp}/none.json", "-o", "{tmp}/g.html"],
     "error: {tmp}/none.json: cannot read (No such file or directory)\n"),
])
def test_report_and_view_errors_are_one_line(tmp_path, args, message):
    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    (tmp_path / "r.json").write_text("{}")
    fill = {"db": str(database), "tmp": str(tmp_path)}
    result = arena(*[arg.format(**fill) for arg in args], check=False)
    assert (result.returncode, result.stderr) == (2, message.format(**fill))


def test_empty_database_is_a_one_line_error(tmp_path):
    database = tmp_path / "empty.db"
    ResultsStore.create(database, "f", {"game": "karibik"}, database, [("a", {}), ("b", {})]).close()
    result = arena("report", str(database), "-o", str(tmp_path / "r.html"), check=False)
    assert (result.returncode, result.stderr) == (2, f"error: {database}: no finished games yet\n")


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x00", bytes(7), b"<" * 9, b"\x0d" * 8, b"\xff" * 15,
                                  bytes(range(256)) * 3, b"\x01\xe0\x3c"])
def test_text_holds_any_bytes_and_no_character_a_script_element_would_change(data):
    text = to_text(data)
    assert from_text(text) == data
    assert not set(text) & {"\x00", "\r", "<"}
    assert max(map(ord, text), default=0) < 0x800  # at most two bytes in UTF-8


def test_text_takes_about_eight_sevenths_of_a_character_a_byte():
    data = random.Random(1).randbytes(70_000)
    text = to_text(data)
    assert from_text(text) == data
    assert len(text.encode()) == 80_000  # 7 bits a character, 14 in a two-byte escape


def test_a_chunk_holds_games_of_any_game_and_seat_count_exactly():
    games = [_frames_payload(play_random(game_id, seed), {"key": f"{game_id}-{seed}"})
             for game_id in GAMES for seed in (1, 2)]
    assert unpack_chunk(pack_chunk(games)) == _plain(games)


def _frames_payload(replay, meta):
    """A game as frames, also of a game with a twin (whose pages carry steps instead)."""
    return {"game": replay.game, "players": replay.num_players, "seed": str(replay.seed),
            "options": dict(replay.options), "meta": meta, "frames": game_frames(replay)}


@pytest.mark.parametrize("values,form", [
    ([], []), ([1, 2], [1, 2]), ([[1, "a"], [2, "b"]], {"L": [[1, 2], ["a", "b"]]}),
    ([{"t": "draw", "card": "A2"}, {"t": "draw", "card": "K4"}], {"D": [["t", "card"], [["draw", "draw"], ["A2", "K4"]]]}),
    ([[{"x": 1}, None], [{"x": 2}, [0]]], {"L": [{"D": [["x"], [[1, 2]]]}, [None, [0]]]}),
    ([{"a": 1}, {"b": 1}], [{"a": 1}, {"b": 1}]), ([[1], [1, 2]], [[1], [1, 2]]), ([[], []], [[], []]),
])
def test_columns_are_columnar_inside_when_their_values_have_one_shape(values, form):
    assert transpose(values) == form
    assert untranspose(json.loads(json.dumps(form))) == values


# -- games of steps (an engine with a JavaScript twin) ------------------------------------------

def _games_of(game_id, seeds, players=None):
    count, options, _ = SHORT[game_id]
    game = engines.get_game(game_id)
    out = []
    for seed in seeds:
        seats = players or (game.min_players, game.max_players)[seed % 2]
        out.append(_report_db().play_random(game_id, seats, seed, options))
    return out


def _report_db():
    from ._report_fixtures import _generator
    return _generator()


@pytest.mark.parametrize("game_id", TWINS)
def test_steps_of_every_twin_game_round_trip_at_every_seat_count(game_id):
    replays = _games_of(game_id, range(1, 7))
    games = [game_payload(replay, {"key": f"k{number}"}) for number, replay in enumerate(replays)]
    assert all("steps" in game and "frames" not in game for game in games)
    back = unpack_steps(pack_steps(games))
    for replay, game, payload in zip(replays, back, games):
        assert game["steps"] == _plain(replay.as_dict()["steps"])
        assert game["seed"] == str(replay.seed) and game["players"] == replay.num_players
        assert game["options"] == engines.get_game(game_id).resolve_options(replay.options)
        assert payload["steps"]["n"] == len(replay.steps)
    # a game of steps costs a small part of its frames (BENCHMARKS.md has the figures)
    assert len(pack_steps(games)) * 5 < len(pack_chunk([_frames_payload(r, g["meta"]) for g, r in zip(games, replays)]))


@pytest.mark.parametrize("game_id", TWINS)
def test_a_step_holds_an_index_only_where_there_is_a_choice(game_id):
    replay = play_random(game_id)
    codes = game_steps(replay)
    state = engines.get_game(game_id).new_state(replay.num_players, replay.seed, replay.options)
    expected: dict = {}
    for step in replay.steps:
        for seat, action in step.items():
            legal = state.legal_actions(seat)
            if legal is None:
                expected.setdefault(f"x:{state.decision(seat)}", []).append(action)
            elif len(legal) > 1:
                expected.setdefault(f"i:{state.decision(seat)}", []).append(
                    next(number for number, item in enumerate(legal) if engines.same_value(item, action)))
        state.apply(step)
    got = {f"{part}:{kind}": values for part in ("i", "x") for kind, values in codes[part].items()}
    assert got == expected and codes["u"] == {name: len(values) for name, values in expected.items()}
    assert codes["h"] == final_check(state, game_id) and "o" not in codes


def test_steps_keep_seats_given_out_of_order_and_a_seed_past_2_53():
    """A simultaneous step whose seats are not in acting order keeps its order (the viewer
    shows the actions as recorded); a seed past 2**53 travels as a string."""
    game = engines.get_game("karibik")
    state = game.new_state(3, 2**63 - 1, {"max_rounds": 2})
    rng = random.Random(5)
    while not state.is_terminal():
        step = {seat: state.random_action(seat, rng) for seat in reversed(state.acting)}
        state.apply(step)
    steps = [dict(reversed(list(step.items()))) for step in state.history]
    replay = Replay("karibik", 3, 2**63 - 1, state.options, steps)
    payload = game_payload(replay, {})
    assert payload["seed"] == "9223372036854775807"
    assert payload["steps"]["o"] and all(number < len(steps) for number, _ in payload["steps"]["o"])
    assert unpack_steps(pack_steps([payload]))[0]["steps"] == _plain(replay.as_dict()["steps"])
    assert game_payload(play_random("dead-mans-draw"), {})["seed"] == str(play_random("dead-mans-draw").seed)


@pytest.mark.parametrize("game_id", TWINS)
def test_a_replay_that_breaks_the_rules_is_a_view_error_in_steps_too(game_id):
    replay = play_random(game_id)
    broken = [dict(step) for step in replay.steps]
    number = next(n for n, step in enumerate(broken) if n > 2)
    broken[number] = {seat: "no such action" for seat in broken[number]}
    with pytest.raises(ViewError, match=f"^replay diverges at step {number + 1}: player"):
        game_steps(Replay(game_id, replay.num_players, replay.seed, replay.options, broken))
    with pytest.raises(ViewError, match="^replay diverges at step 1: player"):
        game_steps(Replay(game_id, replay.num_players, replay.seed, replay.options, [{9: "x"}]))


def test_steps_whose_check_fails_do_not_decode():
    payload = game_payload(play_random("karibik"), {"key": "g1"})
    payload["steps"]["h"] ^= 1
    with pytest.raises(ViewError, match="game g1: the re-played game does not match its check"):
        unpack_steps(pack_steps([payload]))


@pytest.mark.parametrize("value,text", [
    ({"b": [5.0, 2.5, True, None], "a": "é<\n"}, '{"a":"\\u00e9<\\n","b":[5,2.5,true,null]}'),
    ([1e-05, 10.0, "1.0]"], '[1e-05,10,"1]"]'),
])
def test_canonical_json_is_what_the_browser_writes(value, text):
    assert canonical(value) == text  # the browser's ArenaView.canonical: test_report_browser.py


def test_embedded_json_escapes_every_less_than_sign(tmp_path):
    # A hand-edited database: a name holding "<!--<script>" in a script element would put the
    # HTML parser in its "script data escaped" state, and the page's scripts stop (issue 27).
    import sqlite3

    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    hostile = "<!--<script>"
    with sqlite3.connect(database) as db:
        name = json.loads(db.execute("SELECT seats FROM games LIMIT 1").fetchone()[0])[0]
        db.execute("UPDATE games SET seats = replace(seats, ?, ?)", (json.dumps(name), json.dumps(hostile)))
    store = ResultsStore.open(database)
    try:
        page, _ = report_html(store, n_boot=5)
    finally:
        store.close()
    embedded = re.findall(r'<script type="application/json" id="([\w-]+)">(.*?)</script>', page)
    assert [element for element, _ in embedded] == ["report-data"]
    text = embedded[0][1]
    assert "<" not in text and "\\u003c!--\\u003cscript>" in text
    assert hostile in json.loads(text)["names"]
    viewer = viewer_html(play_random("dead-mans-draw"), {"bots": [hostile, "b"]})
    assert all("<" not in text for text in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', viewer))


def _chart(svg: str) -> dict:
    """An error-bar chart's title, ticks (value -> x) and per entrant (point x, bar from, bar to)."""
    ticks = {text: float(x) for x, text in re.findall(r'<text x="([\d.]+)" y="\d+" class="tick">([^<]+)</text>', svg)}
    bars = {name: (float(cx), float(x1), float(x2)) for name, x1, x2, cx in re.findall(
        r'class="label">([^<]+)</text><line x1="([\d.]+)" x2="([\d.]+)"[^>]*/><circle cx="([\d.]+)"', svg)}
    return {"title": re.search(r'class="title">([^<]+)</text>', svg)[1], "ticks": ticks, "bars": bars}


def test_the_plackett_luce_chart_has_error_bars_on_the_scale_of_the_chart_above(tmp_path):
    # Issue 33: a three-player tournament's report drew Plackett-Luce points alone, on a scale
    # of their own.
    database = make_database(tmp_path / "k.db", "karibik")
    report = tmp_path / "r.html"
    arena("report", str(database), "-o", str(report))
    section = report.read_text().split('<section id="standings">')[1].split("</section>")[0]
    bt, pl = [_chart(svg) for svg in re.findall(r"<svg class=\"chart\".*?</svg>", section, re.S)]
    assert bt["title"] == "Bradley-Terry Elo (95% interval)"
    assert pl["title"] == "Plackett-Luce Elo (full finishing orders, 95% interval)"
    assert bt["ticks"] == pl["ticks"] and len(bt["ticks"]) >= 3  # one scale
    assert set(pl["bars"]) == set(bt["bars"]) and len(pl["bars"]) == 3
    for name, (point, low, high) in pl["bars"].items():
        assert low < point < high, name  # an interval around each point
    # the intervals are the ratings package's, drawn at the chart's scale
    from arena.ratings._pl_intervals import plackett_luce_intervals
    from arena.report._tables import records_of

    store = ResultsStore.open(database)
    try:
        names, elo, half = plackett_luce_intervals(records_of(store.games()))
    finally:
        store.close()
    (v0, x0), (v1, x1) = sorted((float(v), x) for v, x in bt["ticks"].items())[:2]
    per_elo = (x1 - x0) / (v1 - v0)
    for name, value, width in zip(names, elo, half):
        point, low, high = pl["bars"][name]
        assert (high - low) == pytest.approx(2 * width * per_elo, abs=1.0)  # x drawn to 0.1 px
