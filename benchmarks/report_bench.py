"""How big the HTML report of a large tournament is and how fast it opens.

    python benchmarks/report_bench.py                      # 10,000 games of Dead Man's Draw
    python benchmarks/report_bench.py --game karibik --players 3 --games 2000
    python benchmarks/report_bench.py --game opito-bay --players 4 --games 64 --option deals=2
    python benchmarks/report_bench.py --game karibik --games 128 --frames   # frames, not steps

Builds a synthetic database (``report_db.py``; kept next to the output and reused), writes
the report, then opens it in headless Chromium and reads the page's own clock
(``performance.now``, real time: the page is driven over the DevTools protocol, not with
``--virtual-time-budget``, under which the clock stops once the page awaits anything; the
figures before this commit came from that and understate the openings): the first paint, when
the games list worked (the replays are still being read then), when the document was parsed,
when the load event ended, and how long opening an embedded game took (decode its chunk when it
is the first game opened from that chunk, then its frames, build the viewer, draw the first
step; for a game whose engine has a rules twin, that is re-playing it with the twin). Prints
one JSON object, with the bytes of replays per game embedded, the commit and the machine's
load average (1 minute) before and after.

``--frames`` writes a game with a rules twin as frames anyway (as before the twins), to
compare sizes and times.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report_db import make_database  # noqa: E402

from arena.report import write_report  # noqa: E402

#: Runs in the loaded page (DevTools Runtime.evaluate, awaited): the page's own figures, then
#: each game opened through the URL like a user would, timed on the page's real clock.
HARNESS = """(async () => {
  while (document.readyState !== "complete") await new Promise((r) => setTimeout(r, 10));
  const nav = performance.getEntriesByType("navigation")[0];
  const mark = (name) => { const m = performance.getEntriesByName(name)[0]; return m ? Math.round(m.startTime) : null; };
  const out = {first_paint_ms: mark("first-contentful-paint"), list_ready_ms: mark("arena-report-ready"),
               parsed_ms: Math.round(nav.domInteractive), load_ms: Math.round(nav.loadEventEnd), opens: []};
  for (const key of KEYS) {
    const start = performance.now();
    location.hash = "#game=" + encodeURIComponent(key);
    while (!window.arenaViewer || window.arenaViewer.game.meta.key !== key) await new Promise((r) => setTimeout(r, 0));
    out.opens.push([key, Math.round(performance.now() - start), window.arenaViewer.states.length - 1]);
  }
  out.js_errors = document.getElementById("js-errors").textContent;
  return JSON.stringify(out);
})()"""


#: Runs in node: re-plays every game of the first CHUNKS chunks of steps of a page with the
#: page's own viewer.js, replay.js, pyrandom.js and rules twin (its first four scripts), and counts the
#: games whose re-play fails (a twin step rejected, or the engine's check not matched).
CHECK_JS = r"""
globalThis.window = globalThis;
globalThis.document = {getElementById: () => null, addEventListener() {}};
window.addEventListener = () => {};
const fs = require("fs"), vm = require("vm"), zlib = require("zlib");
const text = fs.readFileSync(process.argv[2], "utf8");
const scripts = [...text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]).slice(0, 4);
scripts.forEach((code, i) => vm.runInThisContext(code + "\n;globalThis.ArenaView = ArenaView;", {filename: "script" + i}));
const chunks = [...text.matchAll(/<script type="application\/x-steps" id="c\d+">([^<]*)<\/script>/g)]
  .slice(0, Number(process.argv[3]));
const failed = [];
let games = 0;
const cpu = process.cpuUsage();
for (const [, body] of chunks) {
  const chunk = JSON.parse(zlib.gunzipSync(Buffer.from(ArenaView.fromText(body))).toString());
  const reader = ArenaView.stepsReader(chunk);
  for (let i = 0; i < reader.size; i++, games++) {
    const game = reader.game(i);
    try { ArenaView.replay(game); } catch (e) { failed.push([game.meta.key, String(e.message).slice(0, 300)]); }
  }
}
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({games, failed: failed.length, first_failures: failed.slice(0, 3),
                            cpu_ms_a_game: Math.round((used.user + used.system) / 1000 / Math.max(1, games))}));
"""


def check_in_node(page: Path, chunks: int) -> dict:
    """Every game of the page's first ``chunks`` chunks of steps re-played by its twin in node."""
    node = shutil.which("node")
    if node is None:
        return {"node": "missing"}
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as script:
        script.write(CHECK_JS)
    try:
        done = subprocess.run([node, script.name, str(page), str(chunks)], capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(script.name)
    return json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr[-2000:]}


class DevTools:
    """The least of the Chrome DevTools Protocol over one page's WebSocket (wsproto, which the
    ladder extra brings): enough to load a page and await an expression in it. Unlike
    ``--virtual-time-budget`` (whose clock stops once a page awaits anything), the page's
    clock here is real time throughout."""

    def __init__(self, url: str) -> None:
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import Request

        host, _, path = url.removeprefix("ws://").partition("/")
        name, port = host.split(":")
        self.socket = socket.create_connection((name, int(port)), timeout=300)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.socket.sendall(self.ws.send(Request(host=host, target="/" + path)))
        self.pending: list = []
        self.number = 0
        self._next_event()  # the handshake's answer

    def _next_event(self):
        while not self.pending:
            self.ws.receive_data(self.socket.recv(1 << 20))
            self.pending.extend(self.ws.events())
        return self.pending.pop(0)

    def call(self, method: str, **params) -> dict:
        from wsproto.events import Message, TextMessage

        self.number += 1
        self.socket.sendall(self.ws.send(Message(data=json.dumps({"id": self.number, "method": method, "params": params}))))
        text = ""
        while True:
            event = self._next_event()
            if isinstance(event, TextMessage):
                text += event.data
                if event.message_finished:
                    reply = json.loads(text)
                    text = ""
                    if reply.get("id") == self.number:
                        return reply.get("result", reply)


def open_in_chromium(page: Path, keys: list[str]) -> dict:
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if chromium is None:
        return {"chromium": "missing (apt-get install -y chromium)"}
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                                    "--remote-debugging-port=0", "about:blank"], stderr=subprocess.PIPE, text=True)
        try:
            for line in browser.stderr:
                if "DevTools listening on" in line:
                    port = int(re.search(r"ws://[^:]+:(\d+)/", line).group(1))
                    break
            targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=60).read())
            tools = DevTools(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
            started = time.perf_counter()
            tools.call("Page.navigate", url=page.as_uri())
            reply = tools.call("Runtime.evaluate", expression=HARNESS.replace("KEYS", json.dumps(keys)),
                               awaitPromise=True, returnByValue=True)
            wall = time.perf_counter() - started
        finally:
            browser.terminate()  # SIGTERM: Chromium closes its helper processes too
            try:
                browser.wait(timeout=20)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
    value = reply.get("result", {}).get("value")
    result = json.loads(value) if value else {"bench": f"no result: {reply}"[:500]}
    result["chromium_wall_s"] = round(wall, 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dead-mans-draw")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (JSON value), e.g. max_rounds=4")
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "arena-report-bench")
    parser.add_argument("--reuse", action="store_true", help="time the report already written, if there is one")
    parser.add_argument("--frames", action="store_true", help="frames even for a game with a rules twin")
    parser.add_argument("--check", type=int, metavar="CHUNKS", default=0,
                        help="also re-play every game of the first CHUNKS chunks of steps in node (twin vs check)")
    parser.add_argument("--encode", type=int, metavar="N", default=0,
                        help="also time the encoding alone (CPU a game) of N games: steps and frames")
    args = parser.parse_args()
    if args.frames:
        import arena.report._page as page_module

        page_module.rules_script = lambda game_id: None  # the page's one question about a twin
    args.folder.mkdir(parents=True, exist_ok=True)
    options = {key: json.loads(value) for key, value in (option.split("=", 1) for option in args.option)}
    tag = "".join(f"-{key}{value}" for key, value in sorted(options.items()))
    database = args.folder / f"{args.game}-{args.players}p-{args.games}{tag}.db"
    figures: dict = {"game": args.game, "games": args.games, "players": args.players, "options": options,
                     "frames": args.frames, "commit": _commit(), "load_before": round(os.getloadavg()[0], 1)}
    if not database.exists():
        started = time.perf_counter()
        make_database(database, args.game, args.games, args.players, args.entrants, options=options)
        figures["database_s"] = round(time.perf_counter() - started, 1)
    page = args.folder / f"{args.game}-{args.players}p-{args.games}{tag}{'-frames' if args.frames else ''}.html"
    if args.encode:
        figures["encode_cpu_ms_a_game"] = encode_times(database, args.encode)
    if not (args.reuse and page.exists()):
        started, cpu = time.perf_counter(), time.process_time()
        written = write_report(database, page)
        figures.update(report_s=round(time.perf_counter() - started, 1), report_cpu_s=round(time.process_time() - cpu, 1),
                       embedded=written["embedded"], replay_mb=round(written["replay_bytes"] / 1e6, 2),
                       replay_bytes_per_game=round(written["replay_bytes"] / max(1, written["embedded"])))
    text = page.read_text(encoding="utf-8")
    figures.update(size_mb=round(page.stat().st_size / 1e6, 2), page_bytes_per_game=round(page.stat().st_size / args.games),
                   chunks=len(re.findall(r'<script type="application/x-(?:frames|steps)"', text)))
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', text).group(1))
    embedded = [row[0] for row in data["games"] if len(row) > 7]
    # the first game of the first chunk, one from the middle of the page, the last, then the
    # first again (its chunk decoded already)
    keys = [embedded[0], embedded[len(embedded) // 2], embedded[-1], embedded[0]]
    figures["browser"] = open_in_chromium(page, keys)
    if args.check:
        figures["node_check"] = check_in_node(page, args.check)
    figures["load_after"] = round(os.getloadavg()[0], 1)
    print(json.dumps(figures))


def encode_times(database: Path, count: int) -> dict:
    """CPU milliseconds a game to encode the first ``count`` games of ``database`` for the page:
    as steps (for a game with a rules twin) and as frames, without the page around them."""
    from arena.report._frames import game_frames
    from arena.report._steps import game_steps, rules_script
    from arena.tournament._store import ResultsStore
    from engines import Replay

    store = ResultsStore.open(database)
    try:
        replays = [Replay.from_dict(store.replay(game.key)) for game, _ in zip(store.games(), range(count))]
    finally:
        store.close()
    out = {}
    for name, encode in (("steps", game_steps), ("frames", game_frames)):
        if name == "steps" and rules_script(replays[0].game) is None:
            continue
        cpu = time.process_time()
        for replay in replays:
            encode(replay)
        out[name] = round((time.process_time() - cpu) * 1000 / len(replays), 1)
    return out


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=Path(__file__).resolve().parent).stdout.strip() or None
    except OSError:
        return None


if __name__ == "__main__":
    main()
