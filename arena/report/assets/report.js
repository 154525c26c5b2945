/* The tournament report's games list (filters, pages) and the viewer it opens.
   Data: #report-data = {game, names, games: [[key, seats, ranks, scores, reason,
   faultKinds, steps, chunk?, position?], ...]}: an embedded replay is game `position`
   of chunk element #c{chunk}. */
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const esc = ArenaView.esc;
  const names = data.names;
  const byKey = new Map(data.games.map((g, i) => [g[0], i]));
  const PAGE = 200;
  let shown = PAGE;
  let viewer = null;

  const list = document.getElementById("game-list");
  const kinds = [...new Set(data.games.flatMap((g) => g[5]))].sort();
  list.innerHTML = `<div class="filters">
      <label>bot <select id="f-bot"><option value="">any</option>${names.map((n, i) => `<option value="${i}">${esc(n)}</option>`).join("")}</select></label>
      <label>result <select id="f-result"><option value="">any</option><option value="win">won (alone first)</option>
        <option value="draw">shared first place</option><option value="loss">not first</option></select></label>
      <label>faults <select id="f-fault"><option value="">any</option><option value="some">with a fault</option>
        <option value="none">without</option>${kinds.map((k) => `<option value="k:${esc(k)}">${esc(k)}</option>`).join("")}</select></label>
      <span id="f-count"></span></div>
    <table class="games"><thead><tr><th>#</th><th>game</th><th>seats (rank, score)</th><th>end</th><th>faults</th><th>steps</th><th></th></tr></thead>
    <tbody></tbody></table><button id="f-more" hidden>show more</button>`;

  function matches(g) {
    const bot = document.getElementById("f-bot").value;
    const result = document.getElementById("f-result").value;
    const fault = document.getElementById("f-fault").value;
    const seat = bot === "" ? -1 : g[1].indexOf(Number(bot));
    if (bot !== "" && seat < 0) return false;
    const firsts = g[2].filter((r) => r === 1).length;
    if (result) {
      const first = seat < 0 ? firsts > 0 : g[2][seat] === 1;
      const outcome = !first ? "loss" : firsts > 1 ? "draw" : "win";
      if (outcome !== result) return false;
    }
    if (fault === "some" && !g[5].length) return false;
    if (fault === "none" && g[5].length) return false;
    if (fault.startsWith("k:") && !g[5].includes(fault.slice(2))) return false;
    return true;
  }

  function row(g, i) {
    const seats = g[1].map((b, s) => `<span class="${g[2][s] === 1 ? "first" : ""}">${esc(names[b])} (${g[2][s]}, ${esc(g[3][s])})</span>`).join(" · ");
    const open = g.length > 7 ? `<a href="#game=${encodeURIComponent(g[0])}" class="open">view</a>`
      : `<span class="muted" title="not embedded (size budget): arena view DB --game ${esc(g[0])} -o game.html">arena view</span>`;
    return `<tr><td>${i + 1}</td><td>${esc(g[0])}</td><td>${seats}</td><td>${esc(g[4])}</td><td>${esc(g[5].join(", "))}</td><td>${g[6]}</td><td>${open}</td></tr>`;
  }

  function refresh() {
    const hits = [];
    data.games.forEach((g, i) => { if (matches(g)) hits.push(i); });
    list.querySelector("tbody").innerHTML = hits.slice(0, shown).map((i) => row(data.games[i], i)).join("");
    document.getElementById("f-count").textContent = `${hits.length} of ${data.games.length} games`;
    document.getElementById("f-more").hidden = hits.length <= shown;
  }
  for (const id of ["f-bot", "f-result", "f-fault"]) {
    document.getElementById(id).addEventListener("change", () => { shown = PAGE; refresh(); });
  }
  document.getElementById("f-more").addEventListener("click", () => { shown += PAGE * 5; refresh(); });

  const root = document.getElementById("viewer");
  function close() {
    if (viewer) viewer.pause();
    root.hidden = true;
    root.innerHTML = "";
    viewer = null;
    window.arenaViewer = null;
    if (location.hash.startsWith("#game=")) history.pushState(null, "", location.pathname + location.search);
  }

  /* The viewer's position in the URL (replaced, not pushed: Back still closes the game), so
     a link opens that position. */
  function remember(key, step, seat) {
    const hash = `#game=${encodeURIComponent(key)}${seat === null ? "" : "&seat=" + seat}&step=${step}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function position(v, params) {
    if (params.has("seat")) {
      const seat = params.get("seat") === "" ? null : Number(params.get("seat"));
      if (seat !== v.seat) v.setSeat(seat);
    }
    const step = params.get("step");
    if (step === "last") v.key("last");
    else if (step !== null) v.go(Math.max(0, Math.min(Number(step) || 0, v.states.length - 1)));
  }

  /* #game=KEY[&seat=N][&step=M|last] opens that game's viewer (at that seat's view and step). */
  async function route() {
    const params = new URLSearchParams(location.hash.slice(1));
    const key = params.get("game");
    if (key === null) { if (viewer) close(); return; }
    if (viewer && viewer.game.meta.key === key && !root.hidden) { position(viewer, params); return; }
    if (viewer) viewer.pause();
    const index = byKey.get(key);
    root.hidden = false;
    if (index === undefined || data.games[index].length <= 7) {
      root.innerHTML = `<div class="vbar">Game ${esc(key)}: replay not in this report (size budget). ` +
        `<code>arena view DATABASE --game ${esc(key)} -o game.html</code> <button class="close">✕</button></div>`;
      root.querySelector(".close").addEventListener("click", close);
      return;
    }
    root.innerHTML = "<p>loading…</p>";
    const game = await ArenaView.load("c" + data.games[index][7], data.games[index][8]);
    try {
      viewer = new Viewer(root, game, {onClose: close});
    } catch (error) {
      if (!(error instanceof ReplayError)) throw error;
      showReplayError(root, game, error, close);
      document.body.dataset.ready = "1";
      return;
    }
    window.arenaViewer = viewer;
    position(viewer, params);
    viewer.onChange = (step, seat) => remember(key, step, seat);
    document.body.dataset.ready = "1";
  }
  window.addEventListener("hashchange", () => route().catch((e) => recordError("error: " + (e && e.stack || e))));
  document.addEventListener("keydown", (e) => { if (viewer && !root.hidden) viewer.handleKey(e); });
  refresh();
  performance.mark("arena-report-ready");
  route().then(() => { document.body.dataset.ready = "1"; }).catch((e) => recordError("error: " + (e && e.stack || e)));
})();
