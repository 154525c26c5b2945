"""The ladder server end to end: a real ``arena ladder serve`` process, real bots, HTTP.

The issue's "done when": three bots submitted through the API (one broken), the two good ones
get games and ratings, the leaderboard JSON shows them. Then the API's refusals (401, 413,
404, 400) and the pages, on the same server.
"""

import json
import urllib.error
import urllib.request

import pytest
from typer.testing import CliRunner

from arena.cli._app import app

from ._server import BOTS, Server, archive, arena, ladder_folder, remove

pytestmark = pytest.mark.slow


#: A house bot (entered from the file, not vetted) that crashes in every game.
CRASHY = f"""
[[bots]]
author = "crashy"
manifest = "{BOTS}/crashy/bot.toml"
"""


@pytest.fixture(scope="module")
def ladder():
    folder = ladder_folder(CRASHY)
    tokens = {name: arena("ladder", "token", "add", str(folder / "ladder.toml"), name).strip()
              for name in ("alice", "bob", "carol")}
    server = Server(folder, "auto")
    try:
        submitted = {name: server.submit(tokens[name], archive(bot))
                     for name, bot in (("alice", "good"), ("bob", "good"), ("carol", "broken"))}

        def rated():
            rows = {row["name"]: row for row in server.json("/api/leaderboard")["rows"]}
            good = [rows.get(name) for name in ("alice-v1", "bob-v1")]
            return rows if all(row and row["elo"] is not None and row["games"] >= 4 for row in good) else None

        rows = server.wait_for(rated, "both good bots rated")
        yield server, tokens, submitted, rows
    finally:
        server.stop()
        remove(folder)


def test_three_submissions_two_rated(ladder):
    server, _, submitted, rows = ladder
    assert [submitted[name]["entrant"] for name in ("alice", "bob", "carol")] == ["alice-v1", "bob-v1", "carol-v1"]
    assert {s["status"] for s in submitted.values()} == {"pending"}
    # The broken bot was refused with its report, and never entered.
    carol = server.wait_for(lambda: (s := server.json(f"/api/submissions/{submitted['carol']['id']}"))["status"] != "pending"
                            and s, "carol's verdict")
    assert carol["status"] == "failed" and not carol["active"]
    assert "cannot start (on purpose)" in carol["report"]
    assert "carol-v1" not in rows
    for name in ("alice-v1", "bob-v1"):
        row = rows[name]
        assert row["active"]
        assert row["provisional"] == (row["games"] < 20 or row["minus"] + row["plus"] > 200)
        assert row["minus"] > 0 and row["plus"] > 0
    assert rows["crashy-v1"]["elo"] < min(rows["alice-v1"]["elo"], rows["bob-v1"]["elo"])  # it forfeits
    board = server.json("/api/leaderboard")
    assert board["game"] == "dead-mans-draw" and board["players"] == 2 and board["games"] >= 4


def test_bot_games_and_replay(ladder):
    server, *_ = ladder
    # A game is listed once every rotation of its duplicate block is stored: rated games may
    # not be listed yet.
    bot = server.wait_for(lambda: (b := server.json("/api/bots/alice-v1"))["games"] and b, "alice's games listed")
    assert bot["kind"] == "version" and bot["author"] == "alice" and bot["status"] == "passed"
    assert all("alice-v1" in game["seats"] for game in bot["games"])
    assert {row["opponent"] for row in bot["head_to_head"]} <= {"bob-v1", "crashy-v1"}
    author = server.json("/api/bots/alice")
    assert author["kind"] == "author" and [v["entrant"] for v in author["versions"]] == ["alice-v1"]
    listed = server.wait_for(lambda: len((g := server.json("/api/games?bot=bob-v1&limit=2"))["games"]) == 2 and g,
                             "two of bob's games listed")
    assert len(listed["games"]) == 2 and all("bob-v1" in g["seats"] for g in listed["games"])
    game = server.json(f"/api/games/{listed['games'][0]['id']}")
    assert game["replay"]["game"] == "dead-mans-draw" and game["seats"] == listed["games"][0]["seats"]
    status, page = server.get(f"/games/{game['id']}")
    assert status == 200 and b'id="viewer-data"' in page


def test_faults_with_stderr_tails(ladder):
    server, *_ = ladder
    def told():  # the last stderr line can trail the crash itself: wait for a fault that has it
        faults = server.json("/api/bots/crashy-v1")["faults"]
        return next((f for f in faults if "out of rum" in f["stderr_tail"]), None)

    fault = server.wait_for(told, "a fault of crashy with its stderr")
    assert fault["kind"] == "crash"
    game = server.json(f"/api/games/{fault['game']}")
    assert "crashy-v1" in game["seats"] and game["reason"] == "forfeit"
    status, page = server.get("/bots/crashy-v1")
    assert status == 200 and b"crashy: out of rum, giving up" in page and b"<pre>" in page


def test_pages(ladder):
    server, _, submitted, _ = ladder
    status, page = server.get("/")
    assert status == 200 and b'href="/bots/alice-v1"' in page and b"<script" not in page
    # The rating chart needs two fits of the ratings; the fixture waited for one.
    server.wait_for(lambda: len(server.json("/api/bots/alice-v1")["history"]) >= 2, "a second rating fit")
    status, page = server.get("/bots/alice-v1")
    assert status == 200 and b"Head to head" in page and b'href="/games/' in page and b"<svg" in page
    status, page = server.get(f"/submissions/{submitted['carol']['id']}")
    assert status == 200 and b"failed" in page and b"cannot start (on purpose)" in page
    status, page = server.get("/submit")
    assert status == 200 and b'enctype="multipart/form-data"' in page


@pytest.mark.parametrize("path", ["/api/bots/nobody", "/api/games/999999", "/api/submissions/999999",
                                  "/api/games?bot=nobody", "/bots/nobody", "/games/999999"])
def test_unknown_is_404(ladder, path):
    server, *_ = ladder
    status, body = server.get(path)
    assert status == 404
    if path.startswith("/api/"):
        assert "error" in json.loads(body)


def test_refusals(ladder):
    server, tokens, *_ = ladder
    data = archive("good")
    assert server.post("/api/submissions", {"archive": data}, "not-a-token")[0] == 401
    assert server.post("/api/submissions", {"archive": data})[0] == 401
    assert server.post("/submit", {"token": "not-a-token", "archive": data})[0] == 401
    # max_upload_mb = 1: a 2 MiB archive is refused from its Content-Length.
    status, body = server.post("/api/submissions", {"archive": b"x" * (2 * 2**20)}, tokens["alice"])
    assert status == 413 and b"larger than 1 MiB" in body
    # Without a Content-Length (chunked), the body is refused once it passes the limit.
    chunks = (b"x" * 65536 for _ in range(18))  # 1.125 MiB: past the limit and its 64 KiB of slack
    request = urllib.request.Request(server.url + "/api/submissions", data=chunks, method="POST", headers={
        "Authorization": f"Bearer {tokens['alice']}", "Content-Type": "multipart/form-data; boundary=b"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413
    assert server.post("/api/submissions", {"other": "x"}, tokens["alice"])[0] == 400
    assert server.get("/api/games?offset=x")[0] == 400
    # None of these made a submission.
    assert server.json("/api/bots/alice")["versions"][0]["entrant"] == "alice-v1"


def test_revoked_token_is_refused(ladder):
    server, tokens, *_ = ladder
    folder = server.folder
    arena("ladder", "token", "revoke", f"{folder}/ladder.toml", "carol")
    assert server.post("/api/submissions", {"archive": archive("good")}, tokens["carol"])[0] == 401
    assert "carol\tissued" in arena("ladder", "token", "list", f"{folder}/ladder.toml")


def test_submit_from_the_command_line_and_wait(ladder):
    server, *_ = ladder
    token = arena("ladder", "token", "add", str(server.folder / "ladder.toml"), "dave").strip()
    result = CliRunner().invoke(app, ["ladder", "submit", server.url, str(BOTS / "good" / "bot.toml"), "--wait"],
                                env={"ARENA_LADDER_TOKEN": token}, prog_name="arena")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("submitted dave-v1: " + server.url + "/submissions/") and lines[-1] == "dave-v1: passed"
    result = CliRunner().invoke(app, ["ladder", "submit", server.url, str(BOTS / "broken" / "bot.toml"), "--wait"],
                                env={"ARENA_LADDER_TOKEN": token}, prog_name="arena")
    assert result.exit_code == 1 and result.stdout.splitlines()[-1] == "dave-v2: failed"
    assert "cannot start (on purpose)" in result.stdout
