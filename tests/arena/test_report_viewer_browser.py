"""A game a person can read, in a real browser (headless Chromium): every event of every game
as a sentence (the exact words of each event type, and a whole game of each game told without
one raw object), the raw JSON one click away, a fault at its step (a mark on the slider, its
class, detail and stderr, the fallback's moves as the fallback's), the chosen action among the
legal ones, each move's time and reserve, the move list, autoplay and the step in the URL.

The games are real matches (``_viewer_fixtures``): random bots and one that crashes.
"""

import html
import json
import re
from pathlib import Path

import pytest

import engines
from arena.report import viewer_html, write_report
from arena.report._frames import game_frames
from arena.report._page import stored_meta
from arena.tournament._store import ResultsStore
from engines import Replay

from ._viewer_fixtures import flaky_bot, play_database, random_bot
from .test_report_browser import js_errors, run_chromium, trapped

NAMES = ["anna", "bob", "carol", "dan"]
#: game id -> (players, options, the crashing bot's fatal request or None)
GAMES = {"dead-mans-draw": (2, {}, 6), "opito-bay": (2, {"deals": 1}, None), "karibik": (4, {"max_rounds": 2}, 3)}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Per game: (report page, database, the game's key), one real game each (seed 5)."""
    folder = tmp_path_factory.mktemp("viewer")
    out = {}
    for game_id, (players, options, crash) in GAMES.items():
        specs = [random_bot(name) for name in NAMES[:players]]
        if crash is not None:
            specs[1] = flaky_bot(crash)
        database = play_database(folder / f"{game_id}.db", game_id, specs, [5], options)
        report = folder / f"{game_id}.html"
        write_report(database, report, n_boot=5)
        out[game_id] = (report, database, "g000")
    return out


def stored(database: Path, key: str):
    store = ResultsStore.open(database)
    try:
        game = next(g for g in store.games() if g.key == key)
        replay = Replay.from_dict(store.replay(key))
        return game, replay, stored_meta(store, game, replay)
    finally:
        store.close()


def drive(tmp_path: Path, page: Path, fragment: str, body: str, name: str = "h") -> dict:
    """Open ``page`` at ``fragment``, wait for its viewer (``v``, its ``root``), run ``body`` (async
    JavaScript that fills ``out``), return ``out``; fails on any JavaScript error."""
    script = """<script>
    (async () => {
      const out = {};
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const text = (element) => element ? element.textContent.replace(/\\s+/g, " ").trim() : null;
      try {
        for (let i = 0; i < 200 && !window.arenaViewer; i++) await sleep(50);
        const v = window.arenaViewer;
        const root = v.root;
        BODY
      } catch (e) { recordError("harness: " + (e && e.stack || e)); }
      const pre = document.createElement("pre"); pre.id = "harness"; pre.textContent = JSON.stringify(out);
      document.body.appendChild(pre);
    })();
    </script>""".replace("BODY", body)
    driven = page.with_name(f"{name}-{page.name}")
    driven.write_text(trapped(page.read_text(encoding="utf-8"), script), encoding="utf-8")
    dom = run_chromium(tmp_path, driven.as_uri() + fragment, "--dump-dom")
    assert js_errors(dom) == ""
    found = re.search(r'<pre id="harness">(.*?)</pre>', dom, re.S)
    assert found is not None, dom[-3000:]
    return json.loads(html.unescape(found.group(1)))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_whole_game_is_told_in_sentences_with_every_event_behind_them(tmp_path, reports, game_id):
    """Every state's events, in the omniscient view: each group a sentence with no raw object
    in it, and their raw JSON, in order, exactly the engine's events of that state."""
    report, database, key = reports[game_id]
    _, replay, _ = stored(database, key)
    walk = drive(tmp_path, report, f"#game={key}", """
      out.steps = [];
      for (let i = 0; i <= v.last; i++) {
        v.go(i);
        const items = [...root.querySelectorAll(".played .events > li")];
        out.steps.push({raw: items.map((li) => JSON.parse(li.querySelector(".rawjson").textContent)),
                        plain: items.filter((li) => li.querySelector(".sentence code") || !text(li.querySelector(".sentence"))).length,
                        acts: root.querySelectorAll(".played .act .did code").length});
      }""")
    frames = game_frames(replay)
    assert len(walk["steps"]) == len(frames)
    for number, (step, frame) in enumerate(zip(walk["steps"], frames)):
        flat = [event for group in step["raw"] for event in (group if isinstance(group, list) else [group])]
        assert flat == [event[0] for event in frame["e"]], number
        assert step["plain"] == 0 and step["acts"] == 0, (number, step)  # every event and action in words
    types = {event[0]["type"] for frame in frames for event in frame["e"]}
    assert len(types) >= 5


def _sentences(tmp_path, page: Path, cases: list, view: dict, players: int) -> list:
    """The sentences of crafted events: each case a list of events told by ArenaText.eventList."""
    return drive(tmp_path, page, "", """
      const ctx = ArenaText.context({game: v.game.game, players: PLAYERS, bots: BOTS, view: VIEW, before: VIEW});
      const box = document.createElement("div");
      out.sentences = CASES.map((events) => {
        box.innerHTML = ArenaText.eventList(events, ctx);
        return [...box.querySelectorAll(".sentence")].map(text);
      });""".replace("PLAYERS", str(players)).replace("BOTS", json.dumps(NAMES[:players]))
              .replace("VIEW", json.dumps(view).replace("<", "\\u003c"))
              .replace("CASES", json.dumps(cases).replace("<", "\\u003c")), "words")["sentences"]


DMD_EVENTS = [
    ({"type": "start", "seat": 1}, "bob starts"),
    ({"type": "dealt", "characters": ["seer", "greedy"]}, "dealt Seer and Greedy"),
    ({"type": "characters", "characters": ["seer", "davy_jones_locker"]}, "characters revealed: anna Seer and bob Davy Jones' Locker"),
    ({"type": "locker", "seat": 1, "target": 0}, "bob's Davy Jones' Locker targets anna"),
    ({"type": "turn", "seat": 0}, "anna's turn"),
    ({"type": "draw", "seat": 0, "card": "X6"}, "anna draws ✺6"),
    ({"type": "place", "seat": 0, "card": "A5", "from": "discard"}, "⚓5 enters the play area from the discard pile"),
    ({"type": "banked", "seat": 0, "card": "N7", "by": "casanova"}, "anna's Casanova banks ♆7 at once"),
    ({"type": "hook", "seat": 0, "card": "H4"}, "anna's Hook takes ↩4 from their bank"),
    ({"type": "sword", "seat": 0, "target": 1, "card": "S3"}, "anna's Sword takes ⚔3 from bob's bank"),
    ({"type": "cannon", "seat": 0, "target": 1, "cards": ["K5"], "to": "bank"}, "anna's Cannon hits bob's ⚷5 (into anna's bank)"),
    ({"type": "map", "seat": 0, "cards": ["A2", "M3", "O4"]}, "anna's Map reveals ⚓2⌘3◉4 from the discard pile"),
    ({"type": "oracle", "seat": 0, "card": "T6"}, "anna's Oracle reveals the top card: ▣6"),
    ({"type": "seer", "seat": 0, "count": 3}, "anna (Seer) looks at the top 3 cards"),
    ({"type": "look", "seat": 0, "cards": ["C2", "C3"]}, "anna sees ●2●3 (top first)"),
    ({"type": "move", "seat": 0, "card": "A5"}, "anna's Mermaid moves ⚓5 to the end of the row"),
    ({"type": "siren", "seat": 1, "card": "A5"}, "bob's Siren takes ⚓5"),
    ({"type": "lovesword", "seat": 0, "card": "A5"}, "anna (sir Lovesword) banks ⚓5"),
    ({"type": "no_effect", "seat": 0, "suit": "cannon"}, "anna's Cannon has no effect"),
    ({"type": "bust", "seat": 0, "card": "X6", "kept": ["A2"], "lost": ["H7", "M5", "X6"], "locker": 1},
     "anna busts on ✺6: loses ↩7⌘5✺6 to bob's Locker; keeps ⚓2 (protected)"),
    ({"type": "collect", "seat": 1, "cards": ["A2", "K3"]}, "bob collects ⚓2⚷3"),
    ({"type": "bonus", "seat": 1, "cards": ["T4"], "from": 0}, "bob gets a Key and Chest bonus: ▣4 plundered from anna"),
    ({"type": "bonus", "seat": 1, "cards": ["T4"], "from": "discard"}, "bob gets a Key and Chest bonus: ▣4 from the discard pile"),
    ({"type": "end", "scores": [23, 17]}, "game over: anna 23 and bob 17"),
]

OPITO_TABLE = [{"id": 0, "card": "8D", "as": "8", "on": None, "owner": 0, "live": True},
               {"id": 1, "card": "X", "as": "K", "on": 0, "owner": 0, "live": True},
               {"id": 2, "card": "3C", "as": "3", "on": 0, "owner": 0, "live": True},
               {"id": 3, "card": "QH", "as": "Q", "on": None, "owner": 1, "live": True},
               {"id": 4, "card": "TH", "as": "T", "on": None, "owner": 1, "live": True}]
OPITO_EVENTS = [
    ({"type": "seats", "aces": ["AD", "AS"], "order": [0, 1]}, "Aces drawn: anna A♦ (North) and bob A♠ (East); play order anna → bob"),
    ({"type": "deal", "deal": 2, "library": 40}, "deal 2 begins; the library holds 40 cards"),
    ({"type": "hand", "seat": 0, "cards": ["8D", "X"]}, "anna's new hand: 8♦★"),
    ({"type": "play", "seat": 0, "card": "8D", "as": "8", "drew": True, "id": 0, "owner": 0}, "anna plays 8♦ as a treasure, then draws a card"),
    ({"type": "play", "seat": 1, "card": "3C", "as": "3", "drew": False, "id": 2, "on": 0}, "bob plays 3♣ on 8♦, doubling it"),
    ({"type": "play", "seat": 1, "card": "X", "as": "K", "drew": True, "id": 1, "on": 0}, "bob plays ★ as K on 8♦, cancelling it, then draws a card"),
    ({"type": "play", "seat": 0, "card": "QH", "as": "Q", "drew": False, "id": 3, "owner": 1},
     "anna puts Q♥ in front of bob (−2000 for them, −4000 if it is of the suit of bob's Ace)"),
    ({"type": "play", "seat": 0, "card": "9S", "as": "9", "drew": False, "swap": [0, 4], "other": 1}, "anna plays 9♠: swaps their 8♦ with bob's 10♥"),
    ({"type": "play", "seat": 0, "card": "JD", "as": "J", "drew": False, "target": 1, "returned": 3},
     "anna plays J♦: bob puts 3 cards under the library and draws 5"),
    ({"type": "play", "seat": 0, "card": "JD", "as": "J", "drew": False, "target": None, "returned": 0},
     "anna plays J♦: no effect (the library holds fewer than 5 cards)"),
    ({"type": "play", "seat": 1, "card": "5C", "as": "5", "drew": True, "look": 5},
     "bob plays 5♣ and looks at the top 5 cards of the library, then draws a card"),
    ({"type": "discard", "seat": 1, "card": "4C", "drew": False}, "bob discards 4♣ (no card can be played)"),
    ({"type": "seen", "seat": 1, "cards": ["2D", "X"]}, "bob sees 2♦★ (top first)"),
    # a 5 played on an empty library: nothing to look at, said so (not "the top 0 cards", "sees none")
    ({"type": "play", "seat": 1, "card": "5C", "as": "5", "drew": False, "look": 0},
     "bob plays 5♣ and looks at the library: it is empty"),
    ({"type": "play", "seat": 1, "card": "5C", "as": "5", "drew": False, "look": 1}, "bob plays 5♣ and looks at the top card of the library"),
    ({"type": "seen", "seat": 1, "cards": []}, "bob sees no card (the library is empty)"),
    ({"type": "drew", "seat": 0, "card": "TH"}, "anna draws 10♥"),
    ({"type": "score", "deal": 1, "points": [1200, -400], "totals": [1200, -400]},
     "deal 1 scored: anna +1200 and bob −400; totals anna 1200 and bob −400"),
    ({"type": "end", "totals": [1200, -400], "ranks": [1, 2]}, "game over: anna 1200 (rank 1) and bob −400 (rank 2)"),
]

KARIBIK_EVENTS = [
    ({"type": "bribes", "round": 3}, "round 3: every seat has assigned its rum cards to the ships"),
    ({"type": "reveal", "ship": 0, "cards": [5, -1], "winner": 0, "steps": 4, "tied": [], "deciding": []},
     "Arriba: bids anna 5 and bob ☠−1 → anna moves it 4 steps"),
    ({"type": "reveal", "ship": 1, "cards": [3, 3], "winner": None, "steps": 0, "tied": [0, 1], "deciding": [0, 1]},
     "Bravo: bids anna 3 and bob 3 → a tie between anna and bob: they decide whether to reveal their tie-breakers"),
    ({"type": "reveal", "ship": 1, "cards": [3, 3], "winner": None, "steps": 0, "tied": [0, 1], "deciding": []},
     "Bravo: bids anna 3 and bob 3 → a tie between anna and bob nobody can break: the ship stays"),
    ({"type": "tiebreak", "ship": 1, "cards": [4, None], "winner": 0, "steps": 3}, "Bravo's tie-breakers: anna 4 and bob kept → anna moves it 3 steps"),
    ({"type": "move", "ship": 2, "from": 29, "to": 7}, "Caribic sails from Mosquito Bank to Bluefields"),
    ({"type": "loot", "ship": 2, "chest": 7, "player": 1, "gain": 2000}, "Caribic loots the chest of Bluefields (5000); bob gains 2000"),
    ({"type": "rob", "ship": 3, "other": 2, "gave": None, "got": 7}, "Diabolo robs Caribic of the chest of Bluefields (5000)"),
    ({"type": "exchange", "ship": 3, "other": 2, "gave": 7, "got": 1},
     "Diabolo and Caribic swap chests: Diabolo gives the chest of Bluefields (5000) and gets the chest of Havana (8000)"),
    ({"type": "hand", "ship": 3, "other": 2, "gave": 1, "got": None}, "Diabolo hands the chest of Havana (8000) to Caribic"),
    ({"type": "deliver", "ship": 3, "area": 18, "chest": 1, "owner": 0, "gain": 8000},
     "Diabolo delivers the chest of Havana (8000) into Utila: anna gains 8000"),
    ({"type": "move_end", "ship": 3}, "Diabolo's move ends"),
    ({"type": "end", "ship": 3}, "Diabolo's move ends (the protocol 1.x copy of move_end)"),
    ({"type": "round_end", "round": 3, "chests": [1, 7]}, "round 3 ends; chests come onto Havana and Bluefields"),
    ({"type": "game_end", "round": 5, "scores": [12000, 8000]}, "game over after round 5: anna 12000 and bob 8000"),
]


def _views():
    karibik = engines.get_game("karibik").new_state(2, 1, {}).observation(0)
    return {"dead-mans-draw": {}, "opito-bay": {"table": OPITO_TABLE}, "karibik": karibik}


@pytest.mark.parametrize("game_id,events", [("dead-mans-draw", DMD_EVENTS), ("opito-bay", OPITO_EVENTS), ("karibik", KARIBIK_EVENTS)])
def test_every_event_type_reads_as_its_sentence(tmp_path, game_id, events):
    documented = {row.split("|")[1].strip().strip("`") for row in
                  (Path(__file__).parents[2] / "protocol" / "games" / f"{game_id}.md").read_text().split("## Events")[1].splitlines()
                  if row.startswith("| `")}
    documented = {kind for name in documented for kind in re.split(r"`?, `", name)}
    assert documented == {event["type"] for event, _ in events}  # every documented event type
    page = Path(tmp_path) / "game.html"
    players = 2
    page.write_text(viewer_html(Replay(game_id, players, 1, GAMES[game_id][1] if game_id != "karibik" else {}, []),
                                {"bots": NAMES[:players]}), encoding="utf-8")
    cases = [[[event, None]] for event, _ in events]
    # grouped: a draw and what it did, one sentence; Karibik's move_end with its 1.x copy
    extra = {"dead-mans-draw": ([[{"type": "draw", "seat": 0, "card": "X6"}, None],
                                 [{"type": "bust", "seat": 0, "card": "X6", "kept": [], "lost": ["H7", "X6"]}, None]],
                                ["anna draws ✺6 and busts: loses ↩7✺6"]),
             "opito-bay": ([[{"type": "drew", "seat": 1, "card": "2D"}, [1]]], ["bob draws 2♦"]),
             "karibik": ([[{"type": "move_end", "ship": 0}, None], [{"type": "end", "ship": 0}, None]], ["Arriba's move ends"])}
    sentences = _sentences(tmp_path, page, cases + [extra[game_id][0]], _views()[game_id], players)
    assert sentences == [[expected] for _, expected in events] + [extra[game_id][1]]


def test_a_fault_shows_at_its_step_with_its_stderr_and_the_fallbacks_moves(tmp_path, reports):
    report, database, key = reports["dead-mans-draw"]
    game, replay, meta = stored(database, key)
    [fault] = game.faults
    at = fault["step"] + 1  # the state its failed decision led to
    found = drive(tmp_path, report, f"#game={key}", f"""
      out.marks = [...root.querySelectorAll(".track .mark")].map((m) => Number(m.dataset.step));
      v.go({at} - 1);
      out.before = [root.querySelector(".faultbox").hidden, root.querySelectorAll(".played .byfallback").length];
      root.querySelector(".track .mark").click();
      out.step = Number(root.dataset.step);
      out.box = [root.querySelector(".faultbox").hidden, text(root.querySelector(".fault b")), text(root.querySelector(".fault pre.detail")),
                 root.querySelector(".fault pre.stderr").textContent];
      out.played = [...root.querySelectorAll(".played .act")].map((a) => [a.className, text(a.querySelector(".fallback")), text(a.querySelector(".clock"))]);
      out.row = root.querySelector('.movelist li[data-step="{at}"]').className;
      out.rows = [...root.querySelectorAll(".movelist li")].slice({at}).map((li) => li.querySelector(".fallback") ? text(li.querySelector(".fallback")) : null);
      out.next = text(root.querySelector(".next"));""")
    assert found["marks"] == [at]
    assert found["before"] == [True, 0]
    assert found["step"] == at
    assert found["box"] == [False, "⚠ Fault (crash):", fault["detail"],
                            "\n".join(fault["stderr_tail"].rstrip("\n").splitlines()[-12:])]
    assert found["box"][3].endswith("ZeroDivisionError: division by zero")
    assert found["played"] == [["act byfallback", "⚙ the fallback for flaky", "chosen by the arena: a random legal move"]]
    assert found["row"] == "fault byfallback cur"
    # every later move of seat 1 is the fallback's, under its own mark, never under flaky's name alone
    seats = [list(step)[0] for step in replay.steps[at - 1:]]
    assert found["rows"] == ["⚙ flaky" if seat == 1 else None for seat in seats]


def test_each_move_shows_its_legal_alternatives_its_time_and_the_reserve_left(tmp_path, reports):
    report, database, key = reports["dead-mans-draw"]
    game, replay, meta = stored(database, key)
    states = replay.states()
    # the first decision of seat 0 among two or more legal actions
    step = next(n for n, s in enumerate(replay.steps) if 0 in s and len(states[n].legal_actions(0)) > 1)
    legal = states[step].legal_actions(0)
    index = sum(len(s) for s in replay.steps[:step]) + list(replay.steps[step]).index(0)
    found = drive(tmp_path, report, f"#game={key}&step={step + 1}", """
      const act = [...root.querySelectorAll(".played .act")].find((a) => text(a.querySelector(".who")) === "anna");
      out.chips = [...act.querySelectorAll(".chip")].map((c) => [c.classList.contains("chosen"), c.title]);
      out.clock = text(act.querySelector(".clock"));""")
    chosen = replay.steps[step][0]
    assert found["chips"] == [[action == chosen, json.dumps(action, separators=(",", ":"))] for action in legal]
    ms = meta["clock"]["ms"][index]
    shown = "< 1 ms" if ms == 0 else f"{ms:.1f} ms" if ms < 10 else f"{round(ms)} ms"
    assert found["clock"] == f"took {shown} of 1.00 s · reserve left 2.00 s"


def test_the_move_list_the_url_and_autoplay(tmp_path, reports):
    report, database, key = reports["opito-bay"]
    found = drive(tmp_path, report, f"#game={key}&step=9", """
      out.opened = [Number(root.dataset.step), root.querySelector(".slider").value, root.querySelector(".movelist li.cur").dataset.step];
      root.querySelector('.movelist li[data-step="4"]').click();
      out.clicked = [Number(root.dataset.step), root.querySelector(".slider").value, root.querySelector(".movelist li.cur").dataset.step, location.hash];
      root.querySelector(".seat").value = "1";
      root.querySelector(".seat").dispatchEvent(new Event("change"));
      out.seat = location.hash;
      root.querySelector(".speed").value = "16";
      root.querySelector(".play").click();
      out.playing = [root.dataset.playing, text(root.querySelector(".play"))];
      for (let i = 0; i < 200 && Number(root.dataset.step) < 12; i++) await sleep(20);
      root.querySelector(".play").click();
      const stopped = Number(root.dataset.step);
      await sleep(300);
      out.paused = [stopped >= 12, Number(root.dataset.step) === stopped, root.dataset.playing || null, text(root.querySelector(".play"))];
      v.go(v.last - 1);
      root.querySelector(".play").click();
      await sleep(400);
      out.end = [Number(root.dataset.step) === v.last, root.dataset.playing || null];
      const space = () => document.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
      v.go(2);
      space();
      out.space = [root.dataset.playing || null];
      space();
      out.space.push(root.dataset.playing || null);""")
    assert found["opened"] == [9, "9", "9"]
    assert found["clicked"] == [4, "4", "4", f"#game={key}&step=4"]
    assert found["seat"] == f"#game={key}&seat=1&step=4"
    assert found["playing"] == ["1", "❚❚ pause"]
    assert found["paused"] == [True, True, None, "▷ play"]
    assert found["end"] == [True, None]  # autoplay stops at the last step
    assert found["space"] == ["1", None]  # the space bar starts and stops it


def test_a_link_opens_its_position_in_a_seats_view(tmp_path, reports):
    report, database, key = reports["karibik"]
    found = drive(tmp_path, report, f"#game={key}&seat=2&step=7", """
      out.at = [Number(root.dataset.step), root.dataset.seat, root.querySelector(".seat").value];""")
    assert found["at"] == [7, "2", "2"]


def test_the_raw_json_is_one_click_away(tmp_path, reports):
    report, database, key = reports["karibik"]
    _, replay, _ = stored(database, key)
    frames = game_frames(replay)
    first = frames[1]["e"][0][0]
    found = drive(tmp_path, report, f"#game={key}&step=1", """
      const item = root.querySelector(".played .events li");
      const button = item.querySelector(".rawbtn"), code = item.querySelector(".rawjson");
      out.states = [code.hidden];
      button.click();
      out.states.push(code.hidden);
      out.json = code.textContent;
      button.click();
      out.states.push(code.hidden);
      const act = root.querySelector(".played .act .rawbtn");
      act.click();
      out.action = act.nextElementSibling.hidden ? null : act.nextElementSibling.textContent;""")
    assert found["states"] == [True, False, True]
    assert json.loads(found["json"]) == first
    seat, action = next(iter(replay.steps[0].items()))
    assert json.loads(found["action"]) == action


def test_the_single_game_page_takes_its_step_from_the_url(tmp_path, reports):
    _, database, key = reports["dead-mans-draw"]
    game, replay, meta = stored(database, key)
    page = tmp_path / "game.html"
    page.write_text(viewer_html(replay, meta), encoding="utf-8")
    found = drive(tmp_path, page, "#seat=0&step=5", """
      out.at = [Number(root.dataset.step), root.dataset.seat];
      v.go(8);
      out.hash = location.hash;
      out.marks = root.querySelectorAll(".track .mark").length;""")
    assert found == {"at": [5, "0"], "hash": "#seat=0&step=8", "marks": 1}


def test_a_faults_step_is_the_same_number_in_the_viewer_the_report_and_arena_replay(tmp_path, reports):
    """Issue 33: the viewer said a fault was at step 17 where the report and `arena replay` said
    16 (the stored count of steps before it). Steps are numbered from 1 everywhere they are shown."""
    import os
    import subprocess
    import sys

    report, database, key = reports["dead-mans-draw"]
    game, _, _ = stored(database, key)
    [fault] = game.faults
    shown = fault["step"] + 1
    found = drive(tmp_path, report, f"#game={key}", """
      root.querySelector(".track .mark").click();
      out.mark = root.querySelector(".track .mark").title;
      out.row = text(root.querySelector(".movelist li.fault .n"));
      out.box = text(root.querySelector(".fault"));
      const table = document.querySelector("#faults table");
      const headers = [...table.querySelectorAll("thead th")].map(text);
      out.report = text(table.querySelector("tbody tr").children[headers.indexOf("step")]);""", name="steps")
    assert found["mark"].startswith(f"step {shown}: flaky ")
    assert found["row"] == str(shown)
    assert f" deciding step {shown}. " in found["box"]
    assert found["report"] == str(shown)
    replay = subprocess.run([sys.executable, "-m", "arena.cli", "replay", str(database), key], capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert replay.returncode == 0, replay.stderr
    [line] = [line for line in replay.stdout.splitlines() if line.startswith("fault: ")]
    assert line.startswith(f"fault: seat 1 crash at step {shown}: ")
    # ... and the step `arena replay` lists under that number is seat 1's (the fallback's move)
    [listed] = [line for line in replay.stdout.splitlines() if re.match(rf"\s+{shown}\. ", line)]
    assert listed.split()[1] == "flaky", listed
