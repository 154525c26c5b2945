"""``arena play``'s page (``play_html``, the real page and scripts) in a real headless Chromium,
fed chosen messages by a stand-in WebSocket: exact positions, so each word can be checked.
Opito Bay's target choices say whose card each is ("→ anna's 8♦", "→ your 4♣", "→ your own
hand"), each seat box says its seat once where two bots of one name carry their seat in their
names already, and the events are sentences with no raw-JSON toggle. A real ``arena play`` of
three seats checks the same on the page a server sends."""

from __future__ import annotations

import json
import random
import re

import pytest

import engines
from arena.play._page import play_html

from .test_play_browser import PICK, PY_RANDOM, WAIT, browser, serving  # noqa: F401 - the fixture
from .test_play_explains_browser import OPTIONS, TEXT

#: in place of the browser's WebSocket: the page's socket, fed by the test (window.feed)
FAKE_SOCKET = """<script>
window.WebSocket = class {
  constructor(url) { window.fakeSocket = this; setTimeout(() => this.onopen && this.onopen(), 0); }
  send(text) { (window.fakeSent = window.fakeSent || []).push(JSON.parse(text)); }
  close() {}
};
window.feed = (message) => window.fakeSocket.onmessage({data: JSON.stringify(message)});
</script>"""


def fed_page(browser, tmp_path, game: str, welcome: dict):  # noqa: F811
    """The play page of ``game`` with its socket in the test's hands, the welcome given."""
    title = engines.get_game(game).name
    page_file = tmp_path / f"{game}.html"
    page_file.write_text(play_html(game, title).replace("<body class=\"play\">", "<body class=\"play\">" + FAKE_SOCKET, 1),
                         encoding="utf-8")
    page = browser.open(page_file.as_uri())
    page.wait("!!window.fakeSocket && !!window.arenaPlay")
    message = {"type": "welcome", "game": game, "title": title, "humans": [welcome["seat"]], "options": {},
               "human_move_ms": None, "bot_limits": [1000, 0], "where": "nowhere", "random_seat": False, **welcome}
    page.js(f"feed({json.dumps(message)})")
    return page


def show(page, observation: dict, decision: dict | None, events: list | None = None, number: int = 1) -> None:
    """Feed one state message; wait until the page shows it."""
    message = {"type": "state", "number": number, "observation": observation, "events": events or [],
               "thinking": [] if decision else [observation["turn"]], "decision": decision, "faults": [], "notice": None}
    page.js(f"feed({json.dumps(message)})")
    state = "deciding" if decision else "waiting"
    page.wait(f"document.body.dataset.state === '{state}' && " +
              (f"document.getElementById('controls').dataset.decision === '{decision['id']}'" if decision else "true"))
    assert page.js(TEXT % "js-errors") == ""


def opito_table() -> list[dict]:
    """anna's (seat 1) 8♦ under a 3♦ and her Joker as 6; your (seat 0) 4♣ under a King (cancelled)."""
    return [{"id": 0, "card": "8D", "as": "8", "on": None, "owner": 1, "live": True},
            {"id": 1, "card": "4C", "as": "4", "on": None, "owner": 0, "live": False},
            {"id": 2, "card": "3D", "as": "3", "on": 0, "owner": 1, "live": True},
            {"id": 3, "card": "KH", "as": "K", "on": 1, "owner": 0, "live": True},
            {"id": 4, "card": "X", "as": "6", "on": None, "owner": 1, "live": True}]


#: per decision: (kind, the card being played, legal, [(button, what it does), ...])
OPITO_CHOICES = [
    ("target", "3S", [0, 1, 4], [
        ("→ anna's 8♦", "you put 3♠ on anna's 8♦: it is worth double"),
        ("→ your 4♣", "you put 3♠ on your 4♣: it is worth double (though it counts nothing while the King on it stays)"),
        ("→ anna's ★ as 6", "you put 3♠ on anna's ★ as 6: it is worth double")]),
    ("target", "KS", [0, 1, 2, 3], [
        ("→ anna's 8♦", "you cover anna's 8♦ with K♠: it counts nothing for the rest of the deal"),
        ("→ your 4♣", "you cover your 4♣ with K♠: it is cancelled already (a King lies on it): it stays cancelled"),
        ("→ the 3♦ on anna's 8♦", "you cover the 3♦ on anna's 8♦ with K♠: it no longer doubles the treasure it lies on"),
        ("→ the K♥ on your 4♣", "you cover the K♥ on your 4♣ with K♠: it is cancelled, so your 4♣ counts again")]),
    ("player", "JC", [0, 1], [
        ("→ your own hand", "you choose your own hand: its 3 cards go under the library and you draw 5 new cards"),
        ("→ anna's hand", "you choose anna's hand: its 5 cards go under the library and anna draws 5 new cards")]),
    ("player", "QD", [0, 1], [
        ("→ in front of you", "you put Q♦ in front of yourself: you lose 2000 at scoring"),
        ("→ in front of anna", "you put Q♦ in front of anna: anna loses 4000 at scoring (twice 2000: Q♦ is of the suit of anna's Ace)")]),
    ("swap", "9H", [1], [
        ("give your 4♣", "you give away your 4♣: it goes to the other player, with what lies on it")]),
    ("swap_with", "9H", [0, 4], [
        ("take anna's 8♦", "you take anna's 8♦: it comes to you, with what lies on it; your 4♣ goes to anna in exchange"),
        ("take anna's ★ as 6", "you take anna's ★ as 6: it comes to you, with what lies on it; your 4♣ goes to anna in exchange")]),
]


def test_opito_bay_choices_say_whose_card_each_is(browser, tmp_path):  # noqa: F811
    observation = engines.get_game("opito-bay").new_state(2, 3, {"deals": 1}).observation(0)
    observation.update(aces=["AS", "AD"], table=opito_table(), hand_sizes=[3, 5], hand=["2H", "4S", "6C"])
    page = fed_page(browser, tmp_path, "opito-bay", {"players": 2, "seat": 0, "names": ["human", "anna"]})
    try:
        for number, (kind, played, legal, expected) in enumerate(OPITO_CHOICES):
            view = dict(observation, decision=kind, pending={"card": played, "as": played[0]},
                        swap_from=1 if kind == "swap_with" else None)
            show(page, view, {"id": number, "kind": kind, "legal": legal})
            shown = [(button, does) for button, does, _ in page.js(OPTIONS)]
            assert shown == expected, (kind, played, shown)
            # the same words in the button's tooltip, and nobody is "you's" or "you chooses"
            titles = page.js("[...document.querySelectorAll('#controls button.choice')].map((b) => b.title)")
            assert titles == [does for _, does in expected]
    finally:
        page.close()


#: two bots of one name: arena play names them "py-random (seat 0)" and "py-random (seat 2)"
SAME_NAMES = ["py-random (seat 0)", "human", "py-random (seat 2)"]
#: per game with seat boxes: a seed and events a state message may carry
SEAT_BOXES = {
    "opito-bay": (3, [{"type": "deal", "deal": 1, "library": 41},
                      {"type": "play", "seat": 0, "card": "8D", "as": "8", "drew": True, "id": 0, "owner": 0}]),
    "dead-mans-draw": (3, [{"type": "turn", "seat": 0}, {"type": "draw", "seat": 0, "card": "A5"}]),
}


@pytest.mark.parametrize("game", list(SEAT_BOXES))
def test_each_seat_box_says_its_seat_once(browser, tmp_path, game):  # noqa: F811
    seed, events = SEAT_BOXES[game]
    page = fed_page(browser, tmp_path, game, {"players": 3, "seat": 1, "names": SAME_NAMES})
    try:
        show(page, engines.get_game(game).new_state(3, seed, {}).observation(1), None, events)
        boxes = page.js("[...document.querySelectorAll('#board .seatbox')].map((b) => b.innerText)")
        assert len(boxes) == 3
        for seat, box in enumerate(boxes):
            assert box.count("(seat") == 1 and f"(seat {seat})" in box, box
        assert boxes[0].startswith("py-random (seat 0)") and boxes[1].startswith("you (seat 1)"), boxes
    finally:
        page.close()


@pytest.mark.parametrize("game", list(SEAT_BOXES))
def test_event_lines_are_sentences_with_no_raw_json_toggle(browser, tmp_path, game):  # noqa: F811
    # the replay viewer's {} toggle (ArenaText.raw) is wired there alone: on the live page it
    # was a dead button reading "{}", like an empty object
    seed, events = SEAT_BOXES[game]
    page = fed_page(browser, tmp_path, game, {"players": 3, "seat": 1, "names": SAME_NAMES})
    try:
        show(page, engines.get_game(game).new_state(3, seed, {}).observation(1), None, events)
        items = page.js("[...document.querySelectorAll('#events li.ev')].map((li) => li.innerText)")
        assert len(items) == 2 and all(item.startswith("py-random (seat 0)") for item in items[1:]), items
        assert page.js("document.querySelectorAll('#events .rawbtn, #events .rawjson').length") == 0
        assert all("{" not in item and "}" not in item for item in items), items
    finally:
        page.close()


def _prefer(kinds: str) -> str:
    """JavaScript: the index of a legal play of a card of one of ``kinds`` (ranks), or -1."""
    return (f"window.arenaPlay.received.at(-1).decision.legal.findIndex((a) => typeof a === 'string' && "
            f"({json.dumps(kinds)}.includes(a[0]) || (a[0] === 'X' && {json.dumps(kinds)}.includes(a[1]))))")


def test_a_served_opito_bay_page_names_whose_card_each_target_is(browser, tmp_path):  # noqa: F811
    """A real ``arena play`` at three seats (two bots of one name): the person plays a 3, 7 or
    King when they can, a Queen or Jack for the other decision; each target choice names the
    card's owner as the observation has it, each seat box its seat once, no event a {} toggle;
    at the end each row of the result table says its seat once."""
    rng = random.Random(11)
    seen: set[str] = set()
    with serving(tmp_path, "opito-bay", PY_RANDOM, PY_RANDOM, "--seat", "1", "--seed", "4",
                 "--option", "deals=1") as (process, [url]):
        page = browser.open(url)
        try:
            last, number, events = "", 1, 0
            for _ in range(400):
                status = page.wait(WAIT % (number, last), timeout=60)
                assert status != "error", page.js(TEXT % "js-errors")
                if status == "over":  # no such decision in this deal (the bots' seeds differ each run): another
                    number, last = number + 1, ""
                    page.js("document.querySelector('#over .again-new').click()")
                    continue
                last = status[1:]
                assert page.js("document.querySelectorAll('#events .rawbtn').length") == 0
                assert "{}" not in page.js(TEXT % "events")
                events += page.js("document.querySelectorAll('#events li.ev').length")
                boxes = page.js("[...document.querySelectorAll('#board .seatbox')].map((b) => b.innerText)")
                assert [box.count("(seat") for box in boxes] == [1, 1, 1], boxes
                message = page.js("window.arenaPlay.received.at(-1)")
                kind, view = message["decision"]["kind"], message["observation"]
                if kind in ("target", "player"):
                    seen.add(kind)
                    for (button, does, _), action in zip(page.js(OPTIONS), message["decision"]["legal"]):
                        if kind == "target":
                            node = view["table"][action]
                            while node["on"] is not None:
                                node = view["table"][node["on"]]
                            owner = "your " if node["owner"] == 1 else f"py-random (seat {node['owner']})'s "
                            assert button.startswith("→ ") and owner in button and owner in does, (button, does)
                        else:
                            assert button in ("→ your own hand", "→ in front of you") if action == 1 else \
                                f"py-random (seat {action})" in button, button
                        assert re.match(r"you (put|cover|choose) ", does) and "you's" not in does, does
                    if seen == {"target", "player"}:
                        break
                plays = {"play": "37KQJ" if "target" not in seen else "QJ37K"}.get(kind)
                index = page.js(_prefer(plays)) if plays else -1
                if index >= 0:
                    page.js(f"document.querySelector('#controls button.choice[data-choice=\"{index}\"]').click()")
                else:
                    page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
            assert seen == {"target", "player"} and events > 0
            # the end: each player of the result table with their seat once, a score below 0 with a minus sign
            page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
            while (status := page.wait(WAIT % (number, last), timeout=60)) != "over":
                assert status != "error", page.js(TEXT % "js-errors")
                last = status[1:]
                page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
            rows = page.js("[...document.querySelectorAll('#over table.result tbody tr')].map((r) => [...r.cells].map((c) => c.innerText))")
            scores = page.js("window.arenaPlay.received.at(-1).scores")
            assert sorted(player for _, player, _ in rows) == ["py-random (seat 0)", "py-random (seat 2)", "you (seat 1)"], rows
            for _, player, score in rows:
                assert score == str(scores[int(player[-2])]).replace("-", "−"), (rows, scores)
        finally:
            page.close()


def test_dead_mans_draws_targets_say_whose_card_each_is(browser, tmp_path):  # noqa: F811
    # the Cannon's, Sword's and plunder's choices and the Locker's (one of each from real engine
    # states): "→ bob's ⚓4" on the button, as in a move list after the chooser ("anna → bob's ⚓4")
    from .test_play_browser import EVERY_KIND, _one_of_each_decision

    players, options = EVERY_KIND["dead-mans-draw"]
    names = ["anna", "bob", "carl"][:players]
    samples = [s for s in _one_of_each_decision("dead-mans-draw", players, options)
               if s["kind"] in ("cannon", "sword", "plunder", "locker")]
    assert sorted(s["kind"] for s in samples) == ["cannon", "locker", "plunder", "sword"]
    for sample in samples:
        page = fed_page(browser, tmp_path, "dead-mans-draw", {"players": players, "seat": sample["seat"], "names": names})
        try:
            show(page, sample["observation"], {"id": 1, "kind": sample["kind"], "legal": sample["legal"]})
            shown = page.js(OPTIONS)
            assert len(shown) == len(sample["legal"])
            for (button, does, _), action in zip(shown, sample["legal"]):
                if sample["kind"] == "locker":
                    assert button == f"→ {names[action]}" and does.startswith(f"you target {names[action]}"), (button, does)
                else:
                    assert button.startswith(f"→ {names[action[0]]}'s "), (sample["kind"], button)
                    assert does.startswith("you ") and f"{names[action[0]]}'s" in does, does
        finally:
            page.close()
