"""Games of steps in a real browser (headless Chromium): the page re-plays a game with the
engine's JavaScript twin (``engines/<game>/rules.js``) and must build exactly the views the
frames of :mod:`arena.report._frames` hold; a replay the twin does not re-play to its check
shows an error in the viewer, never a wrong game.

The walk through a game (keys, buttons, slider, every seat's view) of these games is
``test_report_browser.py``'s (its reports of Karibik and Opito Bay are games of steps).
"""

import html
import json
import re
import zlib
from pathlib import Path

import pytest

from arena.report import game_frames, viewer_html, write_report
from arena.report._frames import views_at
from arena.report._steps import canonical
from arena.tournament._store import ResultsStore
from engines import Replay

from ._report_fixtures import make_database
from .test_report import _games_of
from .test_report_browser import js_errors, run_chromium, trapped

#: For every game of every chunk of steps: the states at a few steps (the first, the second,
#: the middle, the last), each [pub, hid, priv, acting, actions, events], and the viewer bar.
VIEWS = """<script>
  window.addEventListener("load", async () => {
    const out = {games: {}, canonical: [], crc: []};
    try {
      for (const element of document.querySelectorAll('script[type="application/x-steps"]')) {
        const reader = await ArenaView.loadChunk(element.id);
        for (let position = 0; position < reader.size; position++) {
          const game = reader.game(position);
          const states = ArenaView.decode(game);
          const picked = [...new Set([0, 1, states.length >> 1, states.length - 1])];
          out.games[game.meta.key] = picked.map((i) => [i, states[i].pub, states[i].hid, states[i].priv,
                                                        states[i].acting, states[i].actions, states[i].events]);
        }
      }
      for (const value of VALUES) out.canonical.push(ArenaView.canonical(value));
      for (const text of TEXTS) out.crc.push(ArenaView.crc32(text));
      for (let i = 0; i < 200 && !window.arenaViewer; i++) await new Promise((r) => setTimeout(r, 20));
      out.bar = window.arenaViewer ? window.arenaViewer.root.querySelector(".vbar").textContent : null;
    } catch (e) { recordError("harness: " + (e && e.stack || e)); }
    const pre = document.createElement("pre"); pre.id = "harness"; pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  });
</script>"""

#: values whose canonical JSON the browser must write as Python does (floats, escapes, keys)
VALUES = [{"b": [5.0, 2.5, True, None, -0.5, 1e-05, 123456.75], "a": "é\u2603\n\"\\<\x7f", "c": {"z": [], "y": {}}},
          ["1.0]", 10.0, 3]]


def _run_views(tmp_path: Path, page_text: str) -> dict:
    page = tmp_path / "views.html"
    script = VIEWS.replace("VALUES", json.dumps(VALUES)).replace(
        "TEXTS", json.dumps([canonical(value) for value in VALUES]))
    page.write_text(trapped(page_text, script), encoding="utf-8")
    dom = run_chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert js_errors(dom) == ""
    found = json.loads(html.unescape(re.search(r'<pre id="harness">(.*?)</pre>', dom, re.S).group(1)))
    assert found["canonical"] == [canonical(value) for value in VALUES]
    assert found["crc"] == [zlib.crc32(canonical(value).encode()) for value in VALUES]
    return found


def _plain(value):
    return json.loads(json.dumps(value))


def _check_views(found: list, replay: Replay) -> None:
    """The browser's states at its picked steps against the engine's frames (views_at)."""
    frames = game_frames(replay)
    assert found[-1][0] == len(frames) - 1 == len(replay.steps)
    for index, pub, hid, priv, acting, actions, events in found:
        assert [pub, hid, priv] == _plain(list(views_at(frames, index))), index
        frame = _plain(frames[index])
        assert (acting, actions, events) == (frame["w"], frame["a"], frame["e"]), index


@pytest.mark.parametrize("game_id", ["karibik", "opito-bay"])
def test_browser_replays_every_game_of_a_report_to_the_engines_views(tmp_path, game_id):
    database = make_database(tmp_path / "t.db", game_id)
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    text = report.read_text(encoding="utf-8")
    assert 'type="application/x-frames"' not in text
    found = _run_views(tmp_path, text)
    store = ResultsStore.open(database)
    try:
        keys = [game.key for game in store.games()]
        assert sorted(found["games"]) == sorted(keys)
        for key in keys:
            _check_views(found["games"][key], Replay.from_dict(store.replay(key)))
    finally:
        store.close()


def test_single_game_pages_of_four_players_and_a_seed_past_2_53(tmp_path):
    """``arena view``'s page (one game) takes the same path; its bar shows the exact seed."""
    for game_id, seed in (("opito-bay", 2**63 - 1), ("karibik", 2**60 + 1)):
        (replay,) = _games_of(game_id, [seed])  # an odd seed: the most players
        found = _run_views(tmp_path, viewer_html(replay, {"key": "one", "bots": ["a", "b", "c", "d"]}))
        assert replay.num_players == 4
        _check_views(found["games"]["one"], replay)
        assert f"seed {seed} " in found["bar"]


#: Opens the game in the URL and records what the viewer root shows.
OPENED = """<script>
  window.addEventListener("load", async () => {
    const root = document.getElementById("viewer");
    for (let i = 0; i < 300 && !root.querySelector(".replay-error, .board"); i++) await new Promise((r) => setTimeout(r, 20));
    const pre = document.createElement("pre"); pre.id = "harness";
    pre.textContent = JSON.stringify({error: (root.querySelector(".replay-error") || {}).textContent || null,
                                      viewer: !!window.arenaViewer, board: !!root.querySelector(".board")});
    document.body.appendChild(pre);
  });
</script>"""

#: A twin that drifted from its engine: it lists a decision's legal actions in another order.
DRIFT = """<script>
  for (const rules of Object.values(ArenaRules)) {
    const make = rules.newState;
    rules.newState = (...args) => {
      const state = make.apply(rules, args);
      const legal = state.legalActions.bind(state);
      state.legalActions = (seat) => { const list = legal(seat); return list && list.slice().reverse(); };
      return state;
    };
  }
</script>"""


def _opened(tmp_path: Path, text: str, fragment: str = "", script: str = "") -> dict:
    page = tmp_path / "opened.html"
    page.write_text(trapped(text, script + OPENED), encoding="utf-8")
    dom = run_chromium(tmp_path, page.as_uri() + fragment, "--dump-dom")
    assert js_errors(dom) == ""
    return json.loads(html.unescape(re.search(r'<pre id="harness">(.*?)</pre>', dom, re.S).group(1)))


def test_a_replay_that_fails_its_check_shows_an_error_not_a_game(tmp_path, monkeypatch):
    """A report whose checks do not match the games (as if written by other rules), and a
    page whose twin drifted (legal actions in another order): the viewer says so."""
    import arena.report._steps as steps

    database = make_database(tmp_path / "t.db", "karibik")
    real = steps.final_check
    monkeypatch.setattr(steps, "final_check", lambda state, game_id: real(state, game_id) ^ 1)
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    monkeypatch.undo()
    store = ResultsStore.open(database)
    try:
        key = next(store.games()).key
        replay = Replay.from_dict(store.replay(key))
    finally:
        store.close()
    shown = _opened(tmp_path, report.read_text(encoding="utf-8"), f"#game={key}")
    assert shown["viewer"] is False and shown["board"] is False
    assert "this replay cannot be shown: the game re-played in the browser is not the one recorded" in shown["error"]
    assert f"game {key}" in shown["error"]
    page = viewer_html(replay, {"key": key})
    assert _opened(tmp_path, page)["viewer"] is True  # the same game, right check: shown
    drifted = _opened(tmp_path, page, script=DRIFT)  # runs before the page opens its game
    assert drifted["viewer"] is False and "this replay cannot be shown" in drifted["error"]
