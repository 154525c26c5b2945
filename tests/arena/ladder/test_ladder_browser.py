"""The ladder in a real browser (headless Chromium, skipped where it is not installed; see
tests/arena/test_report_browser.py): an author submits a bot through the web form, the
submission page shows it, and a replay opens from the leaderboard (leaderboard -> bot page
-> game) and steps through without a JavaScript error.

The form is the server's own (fetched from ``/submit``), placed in a local page whose script
only does what a user does: type the token, choose the file (a ``DataTransfer``, as a file
picker would) and press Submit; the browser then posts it to the server and lands on the
submission page, whose DOM ``--dump-dom`` returns.
"""

import base64
import re

import pytest

from ..test_report_browser import _check_walk, _chromium, _drive, run_chromium
from ._server import Server, archive, arena, house_bots, ladder_folder, remove

pytestmark = pytest.mark.slow

HOUSE = house_bots(random="py-random.toml", heuristic="py-heuristic.toml")

CHOOSE_AND_SUBMIT = """
<script>
window.addEventListener("load", () => {
  const form = document.querySelector("form");
  form.querySelector('[name="token"]').value = "%(token)s";
  const bytes = Uint8Array.from(atob("%(archive)s"), (c) => c.charCodeAt(0));
  const files = new DataTransfer();
  files.items.add(new File([bytes], "bot.tar.gz", {type: "application/gzip"}));
  form.querySelector('[name="archive"]').files = files.files;
  form.querySelector('button[type="submit"]').click();
});
</script>
"""


@pytest.fixture
def server():
    _chromium()  # skip (or fail in CI) before starting a server for nothing
    folder = ladder_folder(HOUSE)
    running = Server(folder, "auto")
    try:
        yield running
    finally:
        running.stop()
        remove(folder)


def test_submit_through_the_form_and_open_a_replay(tmp_path, server):
    token = arena("ladder", "token", "add", str(server.folder / "ladder.toml"), "alice").strip()
    status, form = server.get("/submit")
    assert status == 200
    page = form.decode().replace('action="/submit"', f'action="{server.url}/submit"')
    page = page.replace("</body>", CHOOSE_AND_SUBMIT % {
        "token": token, "archive": base64.b64encode(archive("good")).decode()} + "</body>")
    local = tmp_path / "submit.html"
    local.write_text(page, encoding="utf-8")
    dom = run_chromium(tmp_path, local.as_uri(), "--dump-dom")
    if not dom.strip():
        # On a loaded machine the virtual-time budget can end while the browser follows the
        # redirect: the post was made (checked below); load the page it redirects to.
        assert server.json("/api/submissions/3")["author"] == "alice"
        dom = run_chromium(tmp_path, server.url + "/submissions/3", "--dump-dom")
    assert "Submission 3" in dom and "version 1 of" in dom and 'id="status"' in dom, dom[-2000:]
    assert server.json("/api/submissions/3")["entrant"] == "alice-v1"  # stored; its checks run meanwhile

    # Leaderboard -> a bot's page -> one of its games, following the links the pages hold.
    server.wait_for(lambda: server.json("/api/leaderboard")["fitted_games"], "a rated game")
    dom = run_chromium(tmp_path, server.url + "/", "--dump-dom")
    assert 'href="/bots/random-v1"' in dom
    status, bot_page = server.get("/bots/random-v1")
    game = re.search(r'href="(/games/\d+)"', bot_page.decode()).group(1)
    dom = run_chromium(tmp_path, server.url + game, "--dump-dom")
    errors = re.search(r'<pre id="js-errors"[^>]*>(.*?)</pre>', dom, re.S)
    assert errors is not None and errors.group(1) == "", errors and errors.group(1)
    # The same page, driven like a user: every step and every seat's view.
    status, viewer = server.get(game)
    saved = tmp_path / "game.html"
    saved.write_bytes(viewer)
    _check_walk(_drive(tmp_path, saved), 2)
