"""The report and the viewer in a real browser (headless Chromium): open the report, open a
game of each game, step forwards and backwards with keys, buttons and the slider, switch to a
seat's view, take a screenshot that is not blank, and fail on any JavaScript error.

A harness script is appended to a copy of the page; it drives the page like a user and writes
what it saw into the DOM, which ``--dump-dom`` returns. Uncaught errors and rejected promises
land in the page's ``#js-errors`` box (set up by viewer.js), which must stay empty.
"""

import html
import json
import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from arena.report import viewer_html, write_report
from arena.report._chunks import to_text, unpack_chunk
from arena.report._frames import views_at
from arena.tournament._store import ResultsStore

from ._report_fixtures import make_database, play_random

INSTALL = "apt-get install -y chromium"


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"Chromium is required in CI: {INSTALL}")
    pytest.skip(f"Chromium is not installed: {INSTALL}")


def run_chromium(tmp_path: Path, url: str, *extra: str) -> str:
    """Load ``url`` headless until the page is idle (virtual time); return stdout."""
    profile = tmp_path / "profile"
    command = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}",
               "--window-size=1100,900", "--virtual-time-budget=20000", *extra, url]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


#: Drives the open viewer: forwards with →, backwards with the ◀ button, the slider, End,
#: then every seat's view; records each step and view in #harness as JSON.
HARNESS = """
<script>
(async () => {
  const out = {steps: [], seats: [], boards: 0};
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  try {
    for (let i = 0; i < 200 && !window.arenaViewer; i++) await sleep(50);
    const v = window.arenaViewer;
    const root = v.root;
    const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
    out.total = v.states.length - 1;
    for (let i = 0; i < 5; i++) key("ArrowRight");
    out.steps.push(Number(root.dataset.step));
    root.querySelector('[data-go="prev"]').click();
    root.querySelector('[data-go="prev"]').click();
    out.steps.push(Number(root.dataset.step));
    const slider = root.querySelector(".slider");
    slider.value = String(Math.floor(out.total / 2));
    slider.dispatchEvent(new Event("input"));
    out.steps.push(Number(root.dataset.step));
    key("End");
    out.steps.push(Number(root.dataset.step));
    key("Home");
    out.steps.push(Number(root.dataset.step));
    const select = root.querySelector(".seat");
    for (const option of [...select.options]) {
      select.value = option.value;
      select.dispatchEvent(new Event("change"));
      for (let i = 0; i < 3; i++) key("ArrowRight");
      const data = JSON.parse(root.querySelector(".raw pre").textContent);
      out.seats.push([root.dataset.seat, data.seat === undefined ? null : data.seat, "private" in data]);
      if (root.querySelector(".board").innerHTML.length > 200) out.boards += 1;
    }
  } catch (e) { recordError("harness: " + (e && e.stack || e)); }
  const pre = document.createElement("pre");
  pre.id = "harness";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


#: First thing in the page: console.error and console.warn also land in #js-errors (kept
#: until the box exists), so a page that logs an error fails the test like one that throws.
CONSOLE_TRAP = """<script>
  window.consoleLines = [];
  for (const level of ["error", "warn"]) {
    const original = console[level];
    console[level] = (...args) => {
      const line = "console." + level + ": " + args.map(String).join(" ");
      const box = document.getElementById("js-errors");
      if (box) { box.hidden = false; box.textContent += line + "\\n"; } else window.consoleLines.push(line);
      original.apply(console, args);
    };
  }
  document.addEventListener("DOMContentLoaded", () => {
    if (window.consoleLines.length) recordError(window.consoleLines.join("\\n"));
  });
</script>"""


def trapped(text: str, script: str = "") -> str:
    """A page's text with the console trap first in it and ``script`` at the end of its body."""
    return text.replace("<head>", "<head>" + CONSOLE_TRAP, 1).replace("</body>", script + "</body>")


def js_errors(dom: str) -> str:
    errors = re.search(r'<pre id="js-errors"[^>]*>(.*?)</pre>', dom, re.S)
    assert errors is not None, dom[-3000:]
    return html.unescape(errors.group(1))


def _drive(tmp_path: Path, page: Path, fragment: str = "") -> dict:
    driven = page.with_name("driven-" + page.name)
    driven.write_text(trapped(page.read_text(encoding="utf-8"), HARNESS), encoding="utf-8")
    dom = run_chromium(tmp_path, driven.as_uri() + fragment, "--dump-dom")
    assert js_errors(dom) == ""
    found = re.search(r'<pre id="harness">(.*?)</pre>', dom, re.S)
    assert found is not None, dom[-3000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def _check_walk(result: dict, players: int) -> None:
    total = result["total"]
    assert total > 6
    assert result["steps"] == [5, 3, total // 2, total, 0]
    # the omniscient view (every seat's private part) then each seat's exact observation
    assert result["seats"] == [["omniscient", None, True]] + [[str(s), s, False] for s in range(players)]
    assert result["boards"] == players + 1


def _png_is_not_blank(path: Path) -> bool:
    """Decompress the PNG's pixel data: a blank page is a few byte values, a drawn one many."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, position = [], 8
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        kind = data[position + 4:position + 8]
        if kind == b"IDAT":
            chunks.append(data[position + 8:position + 8 + length])
        position += 12 + length
    pixels = zlib.decompress(b"".join(chunks))
    return len(set(pixels)) > 40 and sum(1 for b in pixels[::97] if b not in (0, 255)) > len(pixels[::97]) // 50


@pytest.mark.parametrize("game_id,players", [("dead-mans-draw", 2), ("opito-bay", 2), ("karibik", 3)])
def test_report_opens_a_game_steps_through_it_in_every_view(tmp_path, game_id, players):
    database = make_database(tmp_path / "t.db", game_id)
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    store = ResultsStore.open(database)
    try:
        key = next(store.games()).key
    finally:
        store.close()
    _check_walk(_drive(tmp_path, report, f"#game={key}"), players)
    shot = tmp_path / "shot.png"
    run_chromium(tmp_path, report.as_uri() + f"#game={key}&seat=0&step=last", f"--screenshot={shot}")
    assert _png_is_not_blank(shot)


def test_single_game_viewer_page(tmp_path):
    page = tmp_path / "game.html"
    page.write_text(viewer_html(play_random("karibik"), {"bots": ["red", "blue", "green"]}), encoding="utf-8")
    _check_walk(_drive(tmp_path, page), 3)


def test_report_lists_and_filters_games_without_errors(tmp_path):
    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    filtering = report.with_name("filter.html")
    script = """<script>
      setTimeout(() => {
        const rows = () => document.querySelectorAll("table.games tbody tr").length;
        const out = [rows()];
        const fault = document.getElementById("f-fault");
        fault.value = "some"; fault.dispatchEvent(new Event("change")); out.push(rows());
        fault.value = "none"; fault.dispatchEvent(new Event("change")); out.push(rows());
        const pre = document.createElement("pre"); pre.id = "harness"; pre.textContent = JSON.stringify(out);
        document.body.appendChild(pre);
      }, 100);
    </script>"""
    filtering.write_text(report.read_text().replace("</body>", script + "</body>"))
    dom = run_chromium(tmp_path, filtering.as_uri(), "--dump-dom")
    assert re.search(r'<pre id="js-errors"[^>]*></pre>', dom)
    assert json.loads(re.search(r'<pre id="harness">(.*?)</pre>', dom).group(1)) == [6, 2, 4]


def test_browser_decodes_every_chunk_exactly_as_python(tmp_path):
    """The viewer's decoder (text -> bytes -> gzip -> JSON -> unshred) against _chunks.py's,
    on a report of games with faults in one chunk and the others in another, plus texts whose
    escapes fall at the very end. (A game with a rules twin carries steps instead of frames:
    test_report_twins_browser.py.)"""
    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    page = report.read_text(encoding="utf-8")
    texts = dict(re.findall(r'<script type="application/x-frames" id="(c\d+)">([^<]*)</script>', page))
    assert len(texts) == 2
    crafted = [b"", b"\x00", b"<<<<<<<", bytes(8), bytes(range(256))]
    script = """<script>
      (async () => {
        const out = {chunks: {}, bytes: []};
        out.views = [];
        for (const id of IDS) {
          const reader = await ArenaView.loadChunk(id);
          out.chunks[id] = Array.from({length: reader.size}, (_, i) => reader.game(reader.size - 1 - i)).reverse();
          for (const game of out.chunks[id]) {  // the patches applied: a middle state and the last
            const states = ArenaView.decode(game);
            for (const st of [states[states.length >> 1], states[states.length - 1]]) out.views.push([st.pub, st.hid, st.priv]);
          }
        }
        for (const text of TEXTS) out.bytes.push(Array.from(ArenaView.fromText(text)));
        const pre = document.createElement("pre"); pre.id = "harness"; pre.textContent = JSON.stringify(out);
        document.body.appendChild(pre);
      })().catch((e) => recordError("harness: " + (e && e.stack || e)));
    </script>""".replace("IDS", json.dumps(sorted(texts))).replace(
        "TEXTS", json.dumps([to_text(data) for data in crafted]).replace("<", "\\u003c"))
    decoding = tmp_path / "decode.html"
    decoding.write_text(page.replace("</body>", script + "</body>"), encoding="utf-8")
    dom = run_chromium(tmp_path, decoding.as_uri(), "--dump-dom")
    assert re.search(r'<pre id="js-errors"[^>]*></pre>', dom)
    found = json.loads(html.unescape(re.search(r'<pre id="harness">(.*?)</pre>', dom, re.S).group(1)))
    chunks = {name: unpack_chunk(text) for name, text in texts.items()}
    assert found["chunks"] == chunks
    assert found["views"] == [list(views_at(game["frames"], index)) for name in sorted(chunks) for game in chunks[name]
                              for index in (len(game["frames"]) >> 1, len(game["frames"]) - 1)]
    assert found["bytes"] == [list(data) for data in crafted]


def test_report_opens_games_from_several_chunks(tmp_path):
    """A game in the middle of a chunk, then one from another chunk, then back (the cache)."""
    database = make_database(tmp_path / "t.db", "dead-mans-draw")
    report = tmp_path / "report.html"
    write_report(database, report, n_boot=10)
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', report.read_text()).group(1))
    keys = [row[0] for row in data["games"]]
    assert [row[7:] for row in data["games"]] == [[1, 0], [1, 1], [0, 0], [1, 2], [1, 3], [0, 1]]
    script = """<script>
      window.addEventListener("load", async () => {
        const out = [];
        for (const key of KEYS) {
          location.hash = "#game=" + key;
          for (let i = 0; i < 200 && !(window.arenaViewer && window.arenaViewer.game.meta.key === key); i++) {
            await new Promise((r) => setTimeout(r, 20));
          }
          out.push([window.arenaViewer.game.meta.key, window.arenaViewer.states.length]);
        }
        const pre = document.createElement("pre"); pre.id = "harness"; pre.textContent = JSON.stringify(out);
        document.body.appendChild(pre);
      });
    </script>""".replace("KEYS", json.dumps([keys[4], keys[5], keys[1]]))
    opening = tmp_path / "open.html"
    opening.write_text(report.read_text().replace("</body>", script + "</body>"))
    dom = run_chromium(tmp_path, opening.as_uri(), "--dump-dom")
    assert re.search(r'<pre id="js-errors"[^>]*></pre>', dom)
    steps = {row[0]: row[6] for row in data["games"]}
    assert json.loads(html.unescape(re.search(r'<pre id="harness">(.*?)</pre>', dom).group(1))) == [
        [key, steps[key] + 1] for key in (keys[4], keys[5], keys[1])]
