"""How big the HTML report of a large tournament is and how fast it opens.

    python benchmarks/report_bench.py                      # 10,000 games of Dead Man's Draw
    python benchmarks/report_bench.py --game karibik --players 3 --games 2000

Builds a synthetic database (``report_db.py``; kept next to the output and reused), writes
the report, then opens it in headless Chromium and reads the page's own clock
(``performance.now``, real time even under ``--virtual-time-budget``): the first paint, when
the games list worked (the replays are still being read then), when the document was parsed,
when the load event ended, and how long opening an embedded game took (decode the frames,
build the viewer, draw the first step). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report_db import make_database  # noqa: E402

from arena.report import write_report  # noqa: E402

HARNESS = """<script>
window.addEventListener("load", () => setTimeout(async () => {
  const nav = performance.timing;
  const mark = (name) => { const m = performance.getEntriesByName(name)[0]; return m ? Math.round(m.startTime) : null; };
  const out = {first_paint_ms: mark("first-contentful-paint"), list_ready_ms: mark("arena-report-ready"),
               parsed_ms: nav.domInteractive - nav.navigationStart,
               load_ms: nav.loadEventEnd - nav.navigationStart, opens: []};
  for (const key of KEYS) {
    const start = performance.now();
    location.hash = "#game=" + encodeURIComponent(key);
    while (!window.arenaViewer || window.arenaViewer.game.meta.key !== key) await new Promise((r) => setTimeout(r, 0));
    out.opens.push([key, Math.round(performance.now() - start), window.arenaViewer.states.length - 1]);
  }
  const pre = document.createElement("pre"); pre.id = "bench"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 0));
</script>"""


def open_in_chromium(page: Path, keys: list[str]) -> dict:
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if chromium is None:
        return {"chromium": "missing (apt-get install -y chromium)"}
    with tempfile.TemporaryDirectory() as profile:
        timed = Path(profile) / "timed.html"
        timed.write_text(page.read_text(encoding="utf-8").replace(
            "</body>", HARNESS.replace("KEYS", json.dumps(keys)) + "</body>"), encoding="utf-8")
        started = time.perf_counter()
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                              "--virtual-time-budget=60000", "--dump-dom", timed.as_uri()],
                             capture_output=True, text=True, timeout=300).stdout
        wall = time.perf_counter() - started
    found = re.search(r'<pre id="bench">(.*?)</pre>', dom)
    errors = re.search(r'<pre id="js-errors"[^>]*>(.*?)</pre>', dom, re.S)
    result = json.loads(found.group(1).replace("&quot;", '"')) if found else {"bench": "no result"}
    result["chromium_wall_s"] = round(wall, 2)
    result["js_errors"] = errors.group(1) if errors else "page did not load"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dead-mans-draw")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "arena-report-bench")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    database = args.folder / f"{args.game}-{args.players}p-{args.games}.db"
    figures: dict = {"game": args.game, "games": args.games, "players": args.players}
    if not database.exists():
        started = time.perf_counter()
        make_database(database, args.game, args.games, args.players, args.entrants)
        figures["database_s"] = round(time.perf_counter() - started, 1)
    page = args.folder / f"{args.game}-{args.players}p-{args.games}.html"
    started, cpu = time.perf_counter(), time.process_time()
    written = write_report(database, page)
    figures.update(report_s=round(time.perf_counter() - started, 1), report_cpu_s=round(time.process_time() - cpu, 1),
                   size_mb=round(written["bytes"] / 1e6, 2), embedded=written["embedded"],
                   replay_mb=round(written["replay_bytes"] / 1e6, 2))
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page.read_text(encoding="utf-8")).group(1))
    embedded = [row[0] for row in data["games"] if len(row) > 7]
    figures["browser"] = open_in_chromium(page, [embedded[0], embedded[len(embedded) // 2], embedded[-1]])
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
