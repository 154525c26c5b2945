"""``arena play``'s page explains why, in a real headless Chromium against a real ``arena play``:
every choice of a decision says what it does (Dead Man's Draw's characters their ability), the
page says how a score is made, the end says why the game ended and breaks each seat's score
down, Opito Bay says why a card in hand cannot be played, and the person is "you", never
their entrant name in the third person. Screenshots of each game's first decision and end
(``ARENA_PLAY_SCREENSHOTS=1`` writes the end's to docs/ as well)."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

import engines
from engines.dead_mans_draw._cards import CHARACTERS, SIREN

from .test_play_browser import DOCS, PICK, PY_RANDOM, WAIT, browser, serving  # noqa: F401 - the fixture

#: the options that keep each game short
SHORT = {"dead-mans-draw": [], "opito-bay": ["--option", "deals=1"], "karibik": ["--option", "max_rounds=2"]}
TEXT = "document.getElementById('%s').innerText"
#: per option row: [the button's text, what it says it does]
OPTIONS = """[...document.querySelectorAll('#controls .option')].map((o) => [o.querySelector('button').innerText,
  o.querySelector('.does').innerText, o.classList.contains('off')])"""


def first_decision(page, kind: str | None = None) -> str:
    """Answer decisions (randomly) until one of ``kind`` is open; its decision id."""
    last, rng = "", random.Random(2)
    for _ in range(300):
        status = page.wait(WAIT % (1, last), timeout=60)
        assert status not in ("error", "over"), page.js(TEXT % "js-errors")
        last = status[1:]
        if kind is None or page.js("document.getElementById('controls').dataset.kind") == kind:
            return last
        page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
    pytest.fail(f"no {kind} decision")


def to_the_end(page) -> None:
    last, rng = "", random.Random(3)
    while True:
        status = page.wait(WAIT % (1, last), timeout=60)
        assert status != "error", page.js(TEXT % "js-errors")
        if status == "over":
            return
        last = status[1:]
        page.js(PICK % json.dumps([rng.random() for _ in range(16)]))


def no_third_person(page, name: str = "human") -> None:
    """The person is "you": their entrant name is nowhere on the live page or the result
    (the heading's note of how games are recorded aside); "you" never takes a third-person verb."""
    for element in ("turn", "controls", "events", "board", "over", "replay", "legend-body"):
        text = page.js(TEXT % element)
        assert name not in text, (element, text)
        assert not re.search(r"\byou \(?(draws|keeps|chooses|decides|plays|is|has|collects|busts|gets|sees|moves|puts)\b", text), (element, text)
        assert "you's" not in text, (element, text)


def shot(page, path: Path) -> None:
    from .test_report_browser import _png_is_not_blank

    page.screenshot(path)
    assert _png_is_not_blank(path)


def test_dead_mans_draw_explains_each_character_the_score_and_the_end(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, "dead-mans-draw", PY_RANDOM, "--seat", "0", "--seed", "8") as (process, [url]):
        page = browser.open(url)
        try:
            first_decision(page)
            dealt = page.js("window.arenaPlay.received.at(-1).observation.dealt")
            assert page.js("document.getElementById('controls').dataset.kind") == "character"
            assert page.js(TEXT % "turn").startswith("Your decision: you choose which dealt character to keep (secretly).")
            options = page.js(OPTIONS)
            names = [name for name, _, _ in options]
            assert len(options) == len(set(dealt)) == 2
            for (name, does, off) in options:
                assert not off and does.startswith(f"you keep {name}: ") and len(does) > len(name) + 30, does
            shot(page, tmp_path / "dmd-first.png")
            assert "A score is the sum of each stack's top card" in page.js(
                "document.getElementById('legend-body').textContent")
            first_decision(page, "draw")
            options = dict((name, does) for name, does, _ in page.js(OPTIONS))
            assert options["draw"].startswith("you draw another card: a card of a suit already in the play area (")
            assert options["collect"].startswith("you collect the play area: the ")
            assert re.search(r"(the card of the play area goes|the \d+ cards of the play area go) into your bank(, with a Key "
                             r"and Chest bonus)?; your turn ends$", options["collect"]), options["collect"]
            no_third_person(page)
            to_the_end(page)
            outcome = page.js("document.querySelector('#over .outcome').innerText")
            view = page.js("window.arenaPlay.received.at(-1).observation")
            assert outcome.startswith("The draw pile ran out: the game ended with that turn. A score is the sum of each stack's top card.")
            for seat, score in enumerate(view["scores"]):
                tops = [int(stack[0][1:]) for stack in view["banks"][seat].values() if stack]
                who = "you" if seat == 0 else "py-random"
                parts = " + ".join(map(str, tops)) + (" + 5 (Golden Scales: a Mermaid stack)" if score != sum(tops) else "")
                assert f"{who}: {score} = {parts}" in outcome, (who, outcome)
            no_third_person(page)
            shot(page, tmp_path / "dmd-end.png")
            if os.environ.get("ARENA_PLAY_SCREENSHOTS") == "1":
                shot(page, DOCS / "play-dmd-end.png")
        finally:
            page.close()


def test_opito_bay_says_why_a_card_cannot_be_played_and_breaks_the_score_down(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, "opito-bay", PY_RANDOM, "--seat", "0", "--seed", "4", *SHORT["opito-bay"]) as (process, [url]):
        page = browser.open(url)
        try:
            first_decision(page)
            assert page.js(TEXT % "turn").startswith("Your decision: you choose a card to play.")
            for name, does, off in page.js(OPTIONS):
                assert does.startswith("cannot be played: " if off else "you play "), does
            shot(page, tmp_path / "opito-first.png")
            # a hand with a card that cannot be played: its reason, from the rules
            seen_off = []
            last, rng = "", random.Random(5)
            while not seen_off:
                for name, does, off in page.js(OPTIONS):
                    if off:
                        seen_off.append(does)
                if seen_off:
                    break
                page.js(PICK % json.dumps([rng.random() for _ in range(16)]))
                status = page.wait(WAIT % (1, last), timeout=60)
                assert status not in ("error", "over"), "the game ended before a card could not be played"
                last = status[1:]
            assert set(seen_off) <= {"cannot be played: no treasure on the table for it to lie on",
                                     "cannot be played: no card on the table for it to cover",
                                     "cannot be played: no treasures on the table to swap",
                                     "cannot be played: you have no treasure to swap",
                                     "cannot be played: no other player has a treasure to swap with"}, seen_off
            no_third_person(page)
            to_the_end(page)
            outcome = page.js("document.querySelector('#over .outcome').innerText")
            view = page.js("window.arenaPlay.received.at(-1).observation")
            assert outcome.startswith("The game was 1 deal long (the deals option). A deal scores each treasure as its rank × 100")
            for seat, total in enumerate(view["totals"]):
                who = "you" if seat == 0 else "py-random"
                assert re.search(rf"^{who}: total {str(total).replace('-', '−')}\nlast deal: ", outcome, re.M), (who, outcome)
            no_third_person(page)
            shot(page, tmp_path / "opito-end.png")
            if os.environ.get("ARENA_PLAY_SCREENSHOTS") == "1":
                shot(page, DOCS / "play-opito-end.png")
        finally:
            page.close()


def test_karibik_says_why_the_game_ended_and_where_the_doubloons_came_from(browser, tmp_path):  # noqa: F811
    with serving(tmp_path, "karibik", PY_RANDOM, "--seat", "0", "--seed", "6", *SHORT["karibik"]) as (process, [url]):
        page = browser.open(url)
        try:
            first_decision(page)
            assert page.js(TEXT % "turn").startswith("Your decision: you ")
            controls = page.js(TEXT % "controls")
            assert "Give each ship one rum card" in controls
            assert "On each ship the highest card wins control of it: its owner moves the ship up to that many steps" in controls
            shot(page, tmp_path / "karibik-first.png")
            no_third_person(page)
            to_the_end(page)
            outcome = page.js("document.querySelector('#over .outcome').innerText")
            view = page.js("window.arenaPlay.received.at(-1).observation")
            target = {2: 62000}[2]
            assert outcome.startswith(f"Nobody reached the target of {target} doubloons; the game ended after round 2, "
                                      f"the last (max_rounds 2).")
            history = page.js("window.arenaPlay.received.at(-1).history")
            for seat, score in enumerate(view["scores"]):
                who = "you" if seat == 0 else "py-random"
                loots = sum(1 for e in history if e["type"] == "loot" and e["player"] == seat)
                line = next(line for line in outcome.splitlines() if line.startswith(f"{who}: "))
                assert line.startswith(f"{who}: {score} = ")
                assert (f"{loots} loot" in line) == bool(loots) and "otherwise" not in line, line
            no_third_person(page)
            shot(page, tmp_path / "karibik-end.png")
            if os.environ.get("ARENA_PLAY_SCREENSHOTS") == "1":
                shot(page, DOCS / "play-karibik-end.png")
        finally:
            page.close()


def test_every_character_and_decision_says_what_it_does(browser, tmp_path):  # noqa: F811
    """Every Dead Man's Draw character (the Siren and sir Lovesword too) has its ability in the
    game's words, and every game's explain/outcome hooks read every decision kind."""
    from arena.report._page import renderer_script, viewer_scripts

    page_file = tmp_path / "words.html"
    scripts = "".join(f"<script>{script}</script>" for script in [
        *viewer_scripts("dead-mans-draw"), renderer_script("karibik"), renderer_script("opito-bay")])
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>{scripts}</body>", encoding="utf-8")
    page = browser.open(page_file.as_uri())
    try:
        page.wait("typeof ArenaText === 'object'")
        ids = [*CHARACTERS, SIREN]
        words = page.js(f"""(() => {{
          const ctx = ArenaText.context({{game: "dead-mans-draw", players: 2, bots: ["a", "b"], you: 0}});
          const variant = ArenaText.context({{game: "dead-mans-draw", players: 2, bots: ["a", "b"], options: {{mermaid_effect: true}}}});
          return [{json.dumps(ids)}.map((id) => ArenaText.explain("character", id, ctx, {{}}, 0)),
                  ArenaText.explain("character", "casanova", variant, {{}}, 0),
                  ArenaText.toYou(ArenaText.outcome({{scores: [62500, 41000], target: 62000, round: 4, max_rounds: 30}},
                    [{{type: "game_end", round: 4}}], ArenaText.context({{game: "karibik", players: 2, bots: ["a", "b"], you: 0}}))),
                  ArenaText.toYou(ArenaText.outcome({{totals: [30000, 50100], target: 50000, deals: 0, deal: 3, deal_history: [[0, 0], [0, 0], [30000, 50100]],
                    aces: ["AD", "AS"], table: []}}, [], ArenaText.context({{game: "opito-bay", players: 2, bots: ["a", "b"], you: 0}})))];
        }})()""")
    finally:
        page.close()
    abilities, lovesword, karibik, opito = words
    assert all(len(text) > 25 for text in abilities) and len(set(abilities)) == len(ids)
    assert abilities[ids.index("golden_scales")] == "your score gets +5 if you have a Mermaid stack"
    assert lovesword == "when you place a Mermaid you may take a card placed before it into your bank instead"
    plain = re.sub(r"<[^>]+>", "", karibik)
    assert plain.startswith("you reached the target of 62000 doubloons in round 4: the game ended after that round.")
    assert "you: 62500 = 62500 otherwiseb: 41000" in plain
    plain = re.sub(r"<[^>]+>", "", opito)
    assert plain.startswith("b passed the target of 50000 in deal 3: the game ended with that deal.")
    assert "you: total 30000 = 0 + 0 + 30000 (one per deal)" in plain


#: sentences as the describers write them about seat 0, and as the play page says them to seat 0
YOU = '<b class="who you" style="color:red">you</b>'
SPOKEN = [
    (f'<span class="sentence">{YOU} plays 8♦ as a treasure, then draws a card</span> <button', "you play 8♦ as a treasure, then draw a card"),
    (f'<span class="sentence">{YOU} draws ✺6 and busts: loses ↩7; keeps ⚓3 (protected)</span> <button',
     "you draw ✺6 and bust: lose ↩7; keep ⚓3 (protected)"),
    (f"<span class=\"sentence\">{YOU}'s Hook takes ↩5 from their bank</span> <button", "your Hook takes ↩5 from your bank"),
    (f'<span class="sentence"><b class="who">anna</b> puts Q♥ in front of {YOU} (−2000 for them)</span> <button',
     "anna puts Q♥ in front of you (−2000 for them)"),
    (f'{YOU} <span class="muted">(chooses a card to play)</span>: plays 8♦', "you (choose a card to play): play 8♦"),
    # the replay viewer's line of an action: the verb in <b class="did"> agrees, "their" there is "your"
    (f'{YOU} <span class="muted">(chooses a card to play)</span>: <b class="did">plays 8♦</b> <button',
     "you (choose a card to play): play 8♦"),
    (f'{YOU} <span class="muted">(chooses a stack (Hook))</span>: <b class="did">hooks ↩5 from their Hook stack</b> <button',
     "you (choose a stack (Hook)): hook ↩5 from your Hook stack"),
    (f"{YOU} passes; {YOU} carries; {YOU} is; {YOU} has; {YOU} as", "you pass; you carry; you are; you have; you as"),
    (f'<b class="who">boris</b> draws; <b class="who">you</b> draws', "boris draws; you draws"),  # a bot named "you" is not the person
]


def test_the_person_is_you_in_every_form_of_sentence(browser, tmp_path):  # noqa: F811
    from arena.report._page import viewer_scripts

    page_file = tmp_path / "you.html"
    scripts = "".join(f"<script>{script}</script>" for script in viewer_scripts("opito-bay"))
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>{scripts}</body>", encoding="utf-8")
    page = browser.open(page_file.as_uri())
    try:
        page.wait("typeof ArenaText === 'object'")
        said = page.js(f"{json.dumps([given for given, _ in SPOKEN])}.map((h) => ArenaText.toYouEvents(h).replace(/<[^>]+>/g, ''))")
    finally:
        page.close()
    assert said == [expected + (" <button" if "<button" in given else "") for given, expected in SPOKEN]


@pytest.mark.parametrize("game", ["dead-mans-draw", "opito-bay", "karibik"])
def test_every_choice_of_every_decision_kind_says_what_it_leads_to(browser, tmp_path, game):  # noqa: F811
    # each decision kind from a real engine state (test_play_browser's samples); the spyglass's
    # order is a form whose hint says what it does, the bribe (no list) is explained once
    from arena.report._page import viewer_scripts

    from .test_play_browser import EVERY_KIND, _one_of_each_decision

    players, options = EVERY_KIND[game]
    samples = _one_of_each_decision(game, players, options)
    page_file = tmp_path / "explain.html"
    scripts = "".join(f"<script>{script}</script>" for script in viewer_scripts(game))
    page_file.write_text(f"<!doctype html><meta charset=utf-8><body>{scripts}</body>", encoding="utf-8")
    page = browser.open(page_file.as_uri())
    try:
        page.wait("typeof ArenaText === 'object'")
        words = page.js(f"""{json.dumps(samples)}.map((s) => {{
          const ctx = ArenaText.context({{game: {json.dumps(game)}, seat: s.seat, you: s.seat, players: {players},
                                          bots: Array.from({{length: {players}}}, (_, n) => "seat" + n), options: s.observation.options || {{}},
                                          view: s.observation, before: s.observation}});
          return [s.kind, (s.legal || [null]).map((a) => ArenaText.explain(s.kind, a, ctx, s.observation, s.seat))];
        }})""")
    finally:
        page.close()
    for kind, texts in words:
        if kind == "spyglass":
            continue
        assert texts and all(len(text) > 15 and "undefined" not in text for text in texts), (kind, texts)


def test_a_forfeited_game_says_so_before_its_breakdown(browser, tmp_path):  # noqa: F811
    # the person never answers: their clock runs out, the fallback plays their seat to the end
    with serving(tmp_path, "dead-mans-draw", PY_RANDOM, "--seat", "0", "--human-move-ms", "300") as (process, [url]):
        page = browser.open(url)
        try:
            page.wait("document.body && document.body.dataset.state === 'over'", timeout=120)
            outcome = page.js("document.querySelector('#over .outcome').innerText")
            assert outcome.startswith("A seat forfeited (see the faults below): the arena's fallback played it to the end.\n"
                                      "\nThe draw pile ran out: the game ended with that turn."), outcome
            assert "you: timed out at step 0" in page.js(TEXT % "over")
            assert page.js(TEXT % "js-errors") == ""
        finally:
            page.close()
