"""``arena play`` in a real browser (headless Chromium, driven over the DevTools protocol):
whole games of each game at 2 and 4 players, played by clicking the page's controls (buttons,
the bribe's number fields, the spyglass's order, Karibik's ship and then an area on the map),
each checked against the engine's re-play of the stored game (the person's actions, the
result, every message the page received); a page closed mid-game and opened again; "play
again" with the same deal; Ctrl-C stopping the server. The opponents are random bots (fast).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.match._replay_file import load_replay_file
from arena.tournament._store import ResultsStore
from engines import Replay, game_ids, get_game

from ..conftest import kept_in_the_tests
from ._cdp import Browser, chromium_path
from .test_play import check_messages

ROOT = Path(__file__).resolve().parents[2]
PY_RANDOM = str(ROOT / "examples" / "bots" / "py-random.toml")
OPTIONS = {"dead-mans-draw": [], "opito-bay": ["--option", "deals=1"], "karibik": ["--option", "max_rounds=2"]}
#: every registered game at 2 players (a game of the registry beyond the table above, with its
#: short options), and the games above at 4 too: a full table, stored in a database
CASES = [(game, 2) for game in game_ids()] + [(game, 4) for game in OPTIONS]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if chromium_path() is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("Chromium is required in CI: apt-get install -y chromium")
        pytest.skip("Chromium is not installed: apt-get install -y chromium")
    chromium = Browser(tmp_path_factory.mktemp("chromium"))
    yield chromium
    chromium.close()


@contextmanager
def serving(folder: Path, game: str, *args: str, people: int = 1):
    """``arena play GAME ARGS --no-open`` in ``folder``; yields (process, URLs); Ctrl-C at the end."""
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "play", game, *args, "--no-open", "--sandbox", "none"],
                               cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    urls: list[str] = []
    deadline = time.monotonic() + 60
    try:
        while len(urls) < people:
            if not select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))[0]:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=20)
                pytest.fail(f"arena play printed no URL within 60 s; its stderr: {process.stderr.read()[-3000:]!r}")
            line = process.stdout.readline().decode()  # unbuffered: select sees every line not read yet
            assert line, process.stderr.read().decode()
            urls += [word for word in line.split() if word.startswith("http://")]
        yield process, urls
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr_text = process.stderr.read().decode()
        process.stderr.close()


#: one move on the page, as a person makes it: ``R`` holds random numbers from the test
PICK = """(() => {
  const R = %s; let k = 0;
  const rand = () => R[k++ %% R.length];
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const click = (element) => element.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
  const box = document.getElementById("controls");
  const form = box.querySelector("form.bribes");
  if (form) {
    const cards = [-1, 0, 1, 2, 3, 4, 5];
    for (let i = cards.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [cards[i], cards[j]] = [cards[j], cards[i]]; }
    const high = cards.indexOf(5), ship = Math.floor(rand() * 6);  // the 5 on some ship: a move to make, often
    [cards[high], cards[ship]] = [cards[ship], cards[high]];
    form.querySelectorAll("input.bribe").forEach((input, n) => { input.value = String(cards[n]); });
    form.dispatchEvent(new Event("input", {bubbles: true}));
    box.querySelector("button.send-bribe").click();
    return "bribe " + JSON.stringify(cards.slice(0, 6));
  }
  const order = box.querySelector("ol.spyglass");
  if (order) {
    for (let i = 0; i < 2; i++) { const ups = order.querySelectorAll("button.up"); if (ups.length) pick([...ups]).click(); }
    box.querySelector("button.send-order").click();
    return "spyglass";
  }
  const buttons = [...box.querySelectorAll("button.choice[data-choice]")];
  const ship = document.querySelector("#board svg.kmap g.mine");
  if (ship && box.dataset.kind === "move" && (!buttons.length || rand() < 0.75)) {
    click(ship);
    const targets = [...document.querySelectorAll("#board svg.kmap g.target")];
    if (targets.length) { click(pick(targets)); return "map"; }
    click(ship);
  }
  pick(buttons).click();
  return "button";
})()"""

WAIT = """(() => {
  if (!window.arenaPlay || !document.getElementById("js-errors")) return "";
  const body = document.body.dataset, box = document.getElementById("controls");
  if (document.getElementById("js-errors").textContent) return "error";
  if (body.state === "over" && body.replay === body.over && body.over === "%s") return "over";
  if (body.state === "deciding" && box.dataset.decision && box.dataset.decision !== "%s" && !box.classList.contains("sent")) return "d" + box.dataset.decision;
  return "";
})()"""


def play_through(page, rng: random.Random, game: int = 1, stop_after: int | None = None) -> tuple[int, set[str]]:
    """Click through game number ``game`` to its end (or ``stop_after`` decisions); returns the
    decisions made and how they were made (button, map, bribe, spyglass)."""
    last, made, ways = "", 0, set()
    while stop_after is None or made < stop_after:
        status = page.wait(WAIT % (game, last), timeout=60)
        assert status != "error", page.js("document.getElementById('js-errors').textContent")
        if status == "over":
            break
        last = status[1:]
        ways.add(page.js(PICK % json.dumps([rng.random() for _ in range(16)])).split()[0])
        made += 1
    return made, ways


def persons_actions(received: list[dict], sent: list[dict]) -> list:
    """The actions the page sent, as the engine's values (a choice is an index into the legal list)."""
    decisions = {m["decision"]["id"]: m["decision"] for m in received if m.get("type") == "state" and m.get("decision")}
    out = []
    for message in sent:
        if message["type"] != "act":
            continue
        decision = decisions[message["decision"]]
        out.append(decision["legal"][message["choice"]] if "choice" in message else message["action"])
    return out


def check_game(page, replay: Replay, seat: int, ranks, number: int = 1) -> None:
    record = page.js("window.arenaPlay")
    received = [m for m in record["received"] if m.get("number") == number]
    sent = record["sent"]
    if number > 1:  # the acts of this game: those after the last "again"
        sent = sent[max(i for i, m in enumerate(sent) if m["type"] == "again") + 1:]
    check_messages(received, replay, seat)
    mine = [step[seat] for step in replay.steps if seat in step]
    assert json.loads(json.dumps(persons_actions(received, sent))) == json.loads(json.dumps(mine))
    outcome = replay.final_state().outcome()
    assert list(ranks) == list(outcome.ranks)
    assert page.js("window.arenaViewer.last") == len(replay.steps)
    assert page.js("document.getElementById('js-errors').textContent") == ""


@pytest.mark.parametrize("game, players", CASES)
def test_a_whole_game_is_played_by_clicking_the_page(browser, tmp_path, request, game, players):
    if kept_in_the_tests(game):  # the arena and its bots must find it too
        request.getfixturevalue("children_see_the_tests_games")
    seat = 1 if players == 2 else 2
    database = ["--db", "games.db"] if players == 4 else []
    rng = random.Random(players * 7 + len(game))
    options = OPTIONS.get(game) or [word for key, value in get_game(game).pieces.short_options.items()
                                    for word in ("--option", f"{key}={value}")]
    with serving(tmp_path, game, *[PY_RANDOM] * (players - 1), "--seat", str(seat), "--seed", str(players + 3),
                 *options, *database) as (process, [url]):
        page = browser.open(url)
        try:
            made, ways = play_through(page, rng)
            assert made >= 1
            if database:
                store = ResultsStore.open(tmp_path / "games.db")
                try:
                    [stored] = store.games()
                    replay = Replay.from_dict(store.replay(stored.key))
                    ranks = stored.ranks
                    assert stored.seats[seat] == "human"
                finally:
                    store.close()
            else:
                [kept] = tmp_path.glob(f"play-{game}-*.json")
                replay, result = load_replay_file(kept)
                ranks = result["ranks"]
                assert str(kept) in page.js("document.getElementById('over').textContent")
            check_game(page, replay, seat, ranks)
            number = 1
            while game == "karibik" and "map" not in ways and number < 6:
                # random bots may outbid the person for every ship: new deals until one sails
                page.js("document.querySelector('#over .again-new').click()")
                number += 1
                ways |= play_through(page, rng, game=number)[1]
            if game == "karibik":
                assert {"bribe", "map"} <= ways  # bribes typed in, ships sailed on the map
        finally:
            page.close()


def test_a_closed_page_resumes_where_it_was_and_the_same_deal_plays_again(browser, tmp_path):
    rng = random.Random(5)
    with serving(tmp_path, "dead-mans-draw", PY_RANDOM, "--seat", "0", "--db", "again.db", "--name", "anna",
                 "--human-move-ms", "600000") as (process, [url]):
        page = browser.open(url)
        play_through(page, rng, stop_after=3)
        page.wait("document.body && document.body.dataset.state === 'deciding' && !document.getElementById('controls').classList.contains('sent')")
        before = page.js("[document.getElementById('controls').dataset.decision, document.getElementById('board').innerHTML, "
                         "document.getElementById('events').textContent]")
        assert page.js("document.getElementById('clock').textContent").startswith("your time: ")
        page.close()
        page = browser.open(url)  # the tab opened again: the game waited
        page.wait("document.body && document.body.dataset.state === 'deciding'")
        after = page.js("[document.getElementById('controls').dataset.decision, document.getElementById('board').innerHTML, "
                        "document.getElementById('events').textContent]")
        assert after == before
        play_through(page, rng)
        page.js("document.querySelector('#over .again-same').click()")
        play_through(page, rng, game=2)
        store = ResultsStore.open(tmp_path / "again.db")
        try:
            games = list(store.games())
            assert [g.seats for g in games] == [("anna", "py-random")] * 2 and games[0].seed == games[1].seed
            replay = Replay.from_dict(store.replay(games[1].key))
            ranks = games[1].ranks
        finally:
            store.close()
        check_game(page, replay, 0, ranks, number=2)
        page.close()
    assert process.returncode == 130  # Ctrl-C: the server stops cleanly
    assert "interrupted: the server stopped; 2 finished games kept (again.db)" in process.stderr_text


def test_two_people_each_have_their_own_url(browser, tmp_path):
    rng = random.Random(9)
    with serving(tmp_path, "opito-bay", PY_RANDOM, "--seat", "0", "--seat", "2", "--option", "deals=1",
                 people=2) as (process, urls):
        assert len(set(urls)) == 2
        pages = [browser.open(url) for url in urls]
        seats = [page.wait("window.arenaPlay && window.arenaPlay.received.length && window.arenaPlay.received[0].seat + 1") - 1 for page in pages]
        assert seats == [0, 2]
        lasts = ["", ""]
        while True:  # answer on whichever page is asked, until both show the end
            done = 0
            for number, page in enumerate(pages):
                status = page.js(WAIT % (1, lasts[number]))
                assert status != "error"
                if status == "over":
                    done += 1
                elif status:
                    lasts[number] = status[1:]
                    page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
            if done == 2:
                break
            time.sleep(0.01)
        [kept] = tmp_path.glob("play-opito-bay-*.json")
        replay, result = load_replay_file(kept)
        assert result["bots"] == ["human-0", "py-random", "human-2"]
        for page, seat in zip(pages, seats):
            check_game(page, replay, seat, result["ranks"])
            page.close()


#: per game: the page worth a picture (JavaScript, truthy there), after a few decisions
MOMENTS = {
    "dead-mans-draw": ("document.getElementById('controls').dataset.kind === 'draw' && "
                       "document.querySelectorAll('#board .pile')[1].querySelectorAll('.card').length >= 2 && "
                       "document.querySelectorAll('#board .seatbox .card').length >= 5", []),
    "opito-bay": ("document.getElementById('controls').dataset.kind === 'play' && "
                  "document.querySelectorAll('#board .stack').length >= 3", ["--option", "deals=1"]),
    "karibik": ("document.getElementById('controls').dataset.kind === 'move' && "
                "document.querySelectorAll('#board svg.kmap g.mine').length === 1", []),
}
SHOTS = {"dead-mans-draw": "play-dmd.png", "opito-bay": "play-opito.png", "karibik": "play-karibik.png"}


@pytest.mark.parametrize("game", list(MOMENTS))
def test_screenshot_of_each_games_play_page(browser, tmp_path, game):
    """A picture of each game's play page mid-game (docs/play.md's, with ARENA_PLAY_SCREENSHOTS=1:
    then against the default opponent, the reference search bot, and written to docs/)."""
    from .test_report_browser import _png_is_not_blank

    for_docs = os.environ.get("ARENA_PLAY_SCREENSHOTS") == "1"
    bots = [] if for_docs else [PY_RANDOM]
    moment, options = MOMENTS[game]
    rng = random.Random(3)
    with serving(tmp_path, game, *bots, "--seat", "0", "--seed", "21", *options) as (process, [url]):
        page = browser.open(url)
        last, number = "", 1
        for _ in range(400):
            status = page.wait(WAIT % (number, last), timeout=60)
            assert status != "error"
            if status == "over":  # the bots' seeds are new each run: a game may end first
                number, last = number + 1, ""
                page.js("document.querySelector('#over .again-new').click()")
                continue
            last = status[1:]
            if page.js(f"!!({moment})") and (game != "karibik" or rng.random() < 0.5):
                break
            page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
        if game == "karibik":  # the ship clicked: where it may sail is marked
            page.js("document.querySelector('#board svg.kmap g.mine').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        time.sleep(0.2)
        path = (DOCS if for_docs else tmp_path) / SHOTS[game]
        page.screenshot(path)
        assert _png_is_not_blank(path)
        page.close()


def _one_of_each_decision(game_id: str, players: int, options: dict) -> list[dict]:
    """For every decision kind of ``game_id``: the first time a seat faces it along random
    games (its observation and legal actions), found in the engine in well under a second."""
    import engines

    game = engines.get_game(game_id)
    found: dict[str, dict] = {}
    rng = random.Random(1)
    for seed in range(400):
        state = game.new_state(players, seed, options)
        while state.acting and len(found) < len(game.decisions):
            for seat in state.acting:
                kind = state.decision(seat)
                if kind not in found:
                    found[kind] = {"kind": kind, "seat": seat, "observation": state.observation(seat),
                                   "legal": state.legal_actions(seat)}
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        if len(found) == len(game.decisions):
            break
    assert sorted(found) == sorted(game.decisions)
    return list(found.values())


#: a table size and options at which every decision kind comes up (Davy Jones' Locker needs an
#: opponent to choose among, the Mermaid's own decision its variant)
EVERY_KIND = {"dead-mans-draw": (3, {"mermaid_effect": True}), "opito-bay": (4, {}), "karibik": (2, {})}


@pytest.mark.parametrize("game", list(EVERY_KIND))
def test_every_decision_kind_reads_as_words_on_the_page(browser, tmp_path, game):
    # Random play rarely gives the person some kinds (Dead Man's Draw's locker at 3+ players,
    # plunder, the Mermaid's variant; Opito Bay's discard), so the whole games above cannot be
    # relied on to click them. Here each kind, from a real engine state, is put into words by
    # the page's own scripts: the decision line and every legal action's button label and title,
    # none of them the raw-JSON fallback.
    from arena.report._page import viewer_scripts

    players, options = EVERY_KIND[game]
    samples = _one_of_each_decision(game, players, options)
    page_file = tmp_path / "words.html"
    scripts = "".join(f"<script>{script}</script>" for script in viewer_scripts(game))
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>{scripts}</body>", encoding="utf-8")
    page = browser.open(page_file.as_uri())
    try:
        page.wait("typeof ArenaText === 'object'")
        words = page.js(f"""(() => {{
          const plain = (h) => {{ const d = document.createElement("div"); d.innerHTML = h; return d.textContent.trim(); }};
          const names = Array.from({{length: {players}}}, (_, s) => "seat" + s);
          return {json.dumps(samples)}.map((s) => {{
            const ctx = ArenaText.context({{game: {json.dumps(game)}, seat: s.seat, players: {players}, bots: names,
                                            options: s.observation.options || {{}}, view: s.observation, before: s.observation}});
            const legal = s.legal || [];
            return {{kind: s.kind, decision: ArenaText.decision(s.kind, s.seat, ctx, s.observation),
                     brief: legal.map((a) => ArenaText.action(s.kind, a, ctx, s.observation, s.seat, true)),
                     full: legal.map((a) => plain(ArenaText.action(s.kind, a, ctx, s.observation, s.seat, false)))}};
          }});
        }})()""")
    finally:
        page.close()
    assert [entry["kind"] for entry in words] == [sample["kind"] for sample in samples]
    for entry, sample in zip(words, samples):
        assert not entry["decision"].startswith("decides <b>"), entry  # the generic fallback
        assert len(entry["brief"]) == len(sample["legal"] or [])
        for text in entry["brief"] + entry["full"]:
            assert text and "<code>" not in text and "undefined" not in text and "[object" not in text, (entry["kind"], text)
