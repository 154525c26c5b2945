"""``arena play``'s page (``play_html``, the real page and scripts) in a real headless Chromium,
fed chosen messages by a stand-in WebSocket: exact positions, so each word can be checked.
Each seat box says its seat once where two bots of one name carry their seat in their names
already, and the events are sentences with no raw-JSON toggle."""

from __future__ import annotations

import json

import pytest

import engines
from arena.play._page import play_html

from .test_play_browser import browser  # noqa: F401 - the fixture
from .test_play_explains_browser import TEXT

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
