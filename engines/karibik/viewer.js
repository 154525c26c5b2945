/* Karibik in the replay viewer (arena report / arena view) and any page built on it: the
   drawing (ArenaRenderers: the map with ships, chests and hideouts, labels placed so they do
   not collide; the bribes as they are revealed) and the words (ArenaDescribers: events,
   decisions and actions as sentences, the map's legend; see arena/report/assets/describe.js).
   `view` is one seat's observation (protocol/games/karibik.md) or, with ctx.seat null, the
   omniscient view (adds reserve_order and every seat's private part under `private`). */
"use strict";
(() => {
  const SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"];
  const SEAT_COLOUR = ["red", "blue", "green", "yellow"];
  /* colour: [fill on the map, text colour readable on white] */
  const COLOUR = {red: ["#e53935", "#c62828"], blue: ["#3f6fd8", "#1f54b8"], green: ["#2fa84f", "#1b7f2a"], yellow: ["#f2c318", "#8a6a00"]};
  const FILL = {port: "#d9b27c", start: "#a9d8f2", sea: "#d6edf8"};
  const S = 10;          // map units to SVG units
  const FONT = 10;       // label font size
  const R = 10;          // area circle radius
  const esc = ArenaText.esc;

  const boardOf = (ctx) => (ctx.view && ctx.view.board) || (ctx.before && ctx.before.board) || null;
  const areaName = (ctx, id) => {
    const board = boardOf(ctx);
    return board && board.areas[id] ? `<i>${esc(board.areas[id][0])}</i>` : `area ${esc(id)}`;
  };
  const chestName = (ctx, id) => {
    const board = boardOf(ctx);
    return board && board.areas[id] ? `the chest of <i>${esc(board.areas[id][0])}</i> (${esc(board.areas[id][2])})` : `chest ${esc(id)}`;
  };
  const ship = (n) => `<b class="ship">${SHIPS[n] || "ship " + n}</b>`;
  const rum = (value) => value === null || value === undefined ? '<span class="rum kept">kept</span>' :
    value === -1 ? '<span class="rum thief" title="the thief card: one step less for the winner">☠−1</span>' : `<span class="rum">${value}</span>`;

  /* Where each area's name goes: the first of eight places around its circle that overlaps
     no circle and no label placed before it (ports first), else the least overlapping one.
     Computed once per board. */
  const placed = new WeakMap();
  function labels(board) {
    if (placed.has(board)) return placed.get(board);
    const areas = board.areas;
    const xs = areas.map((a) => a[3] * S), ys = areas.map((a) => a[4] * S);
    const minX = Math.min(...xs) - 40, maxX = Math.max(...xs) + 40, minY = Math.min(...ys) - 30, maxY = Math.max(...ys) + 30;
    const boxes = areas.map((a, i) => [xs[i] - R - 2, ys[i] - R - 2, xs[i] + R + 2, ys[i] + R + 2]);
    const overlap = (a, b) => Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    const order = areas.map((_, i) => i).sort((a, b) => ["port", "hideout", "start", "sea"].indexOf(areas[a][1]) - ["port", "hideout", "start", "sea"].indexOf(areas[b][1]) || a - b);
    const out = [];
    for (const id of order) {
      const width = areas[id][0].length * FONT * 0.55, height = FONT + 1;
      const x = xs[id], y = ys[id];
      const gap = R + 3;
      // [anchor x, baseline y, text-anchor] for: below, above, right, left, and the diagonals
      const candidates = [[x, y + gap + FONT - 1, "middle"], [x, y - gap - 2, "middle"], [x + gap, y + FONT / 2 - 1, "start"],
                          [x - gap, y + FONT / 2 - 1, "end"], [x + gap - 4, y + gap + FONT - 3, "start"], [x + gap - 4, y - gap, "start"],
                          [x - gap + 4, y + gap + FONT - 3, "end"], [x - gap + 4, y - gap, "end"]];
      let best = null;
      for (const [lx, ly, anchor] of candidates) {
        const left = anchor === "middle" ? lx - width / 2 : anchor === "start" ? lx : lx - width;
        const box = [left, ly - FONT + 1, left + width, ly + 2];
        let cost = boxes.reduce((sum, other) => sum + overlap(box, other), 0);
        if (box[0] < minX || box[2] > maxX || box[1] < minY || box[3] > maxY) cost += 1e6;
        if (best === null || cost < best.cost) best = {cost, lx, ly, anchor, box};
        if (cost === 0) break;
      }
      boxes.push(best.box);
      out[id] = best;
    }
    const result = {labels: out, view: [minX, minY, maxX - minX, maxY - minY]};
    placed.set(board, result);
    return result;
  }

  /* The map: areas by kind (hideouts in their owner's colour; an unused colour's are sea),
     chests on their ports, ships on their areas (gold: carrying a chest; red edge: moving). */
  function map(view, ctx) {
    const areas = view.board.areas;
    const {labels: placedLabels, view: box} = labels(view.board);
    const ports = areas.map((a, i) => i).filter((i) => areas[i][1] === "port");
    const chestOf = {};
    ports.forEach((port, i) => { chestOf[port] = view.chests[i]; });
    const used = (colour) => SEAT_COLOUR.indexOf(colour) >= 0 && SEAT_COLOUR.indexOf(colour) < ctx.players;
    const svg = [`<svg class="kmap" xmlns="http://www.w3.org/2000/svg" viewBox="${box.join(" ")}" width="100%" font-size="${FONT}" font-family="DejaVu Sans, sans-serif">`,
                 `<rect x="${box[0]}" y="${box[1]}" width="${box[2]}" height="${box[3]}" fill="#eef8fc"/>`];
    view.board.adjacent.forEach((near, a) => near.forEach((b) => {
      if (b > a) svg.push(`<line x1="${areas[a][3] * S}" y1="${areas[a][4] * S}" x2="${areas[b][3] * S}" y2="${areas[b][4] * S}" stroke="#a9c6d8" stroke-width="1.2"/>`);
    }));
    areas.forEach(([name, kind, extra, x, y], id) => {
      const hideout = kind === "hideout" && used(extra);
      const fill = hideout ? COLOUR[extra][0] : kind === "hideout" ? FILL.sea : FILL[kind] || FILL.sea;
      const owner = hideout ? SEAT_COLOUR.indexOf(extra) : null;
      const what = kind === "port" ? `port, chest ${extra}: ${chestOf[id]}` : hideout ? `${extra} hideout of ${ctx.name(owner)}` :
        kind === "hideout" ? `sea (the ${extra} hideout, unused with ${ctx.players} players)` : kind === "start" ? "start area" : "sea";
      const delivered = kind === "port" && chestOf[id] === "delivered";
      svg.push(`<g data-area="${id}"><title>${esc(name)} (area ${id}: ${esc(what)})</title>` +
        `<circle cx="${x * S}" cy="${y * S}" r="${R}" fill="${fill}" stroke="${kind === "port" ? "#7a5a2a" : "#4a6a80"}" stroke-width="${kind === "port" ? 1.6 : 1}"${kind === "start" ? ' stroke-dasharray="3 2"' : ""}/>` +
        `<text x="${x * S}" y="${y * S + 3}" text-anchor="middle" font-size="8" fill="${hideout && extra !== "yellow" ? "#fff" : "#234"}">${id}</text></g>`);
      const label = placedLabels[id];
      svg.push(`<text x="${label.lx}" y="${label.ly}" text-anchor="${label.anchor}" class="klabel${delivered ? " gone" : ""}" ` +
        `fill="${hideout ? COLOUR[extra][1] : kind === "port" ? "#5a3d10" : "#35607a"}"${kind === "port" || hideout ? ' font-weight="bold"' : ""}>${esc(name)}</text>`);
      if (kind === "port" && chestOf[id] === "port") {
        svg.push(`<g><title>the chest of ${esc(name)} (${extra}) lies on its port</title><rect x="${x * S + 5}" y="${y * S - 17}" width="13" height="11" rx="2" fill="#ffd54a" stroke="#7a5a00"/>` +
          `<text x="${x * S + 11.5}" y="${y * S - 8.5}" text-anchor="middle" font-size="8" font-weight="bold" fill="#4a3500">${Math.round(extra / 1000)}</text></g>`);
      }
    });
    view.ships.forEach(([area, chest], n) => {
      const [, , , x, y] = areas[area];
      const active = view.ship === n;
      const value = chest !== null && areas[chest] ? Math.round(areas[chest][2] / 1000) : null;
      svg.push(`<g data-ship="${n}"><title>${SHIPS[n]} at ${esc(areas[area][0])}${chest !== null ? ", carrying the chest of " + esc(areas[chest][0]) + " (" + areas[chest][2] + ")" : ""}${active ? " (being moved)" : ""}</title>` +
        `<rect x="${x * S - 13}" y="${y * S - 11}" width="${value === null ? 26 : 32}" height="22" rx="5" fill="${value === null ? "#fff" : "#ffd54a"}" ` +
        `stroke="${active ? "#d00" : "#222"}" stroke-width="${active ? 3 : 1.4}"/>` +
        `<text x="${x * S - (value === null ? 0 : 4)}" y="${y * S + 5}" text-anchor="middle" font-weight="bold" font-size="14" fill="#111">${SHIPS[n][0]}</text>` +
        `<text x="${x * S + 5}" y="${y * S + 5}" font-size="9" font-weight="bold" fill="#5a3d00">${value === null ? "" : value}</text></g>`);
    });
    svg.push("</svg>");
    return svg.join("");
  }

  ArenaRenderers["karibik"] = function (view, ctx) {
    const areas = view.board.areas;
    const out = [];
    out.push(`<div class="kv">round <b>${view.round}</b> / ${view.max_rounds} · phase <b>${esc(view.phase)}</b>` +
      (view.ship !== null ? ` · ship ${ship(view.ship)}` : "") +
      (view.controller !== null ? ` · moved by ${ctx.who(view.controller)}, ${view.steps_left} step${view.steps_left === 1 ? "" : "s"} left` : "") +
      (view.tied.length ? ` · tie between ${ArenaText.list(view.tied.map((s) => ctx.who(s)))}` : "") +
      ` · reserve ${view.reserve_pairs} pair${view.reserve_pairs === 1 ? "" : "s"}${ctx.seat === null && view.reserve_order ? " (" + view.reserve_order.map((p) => esc(areas[p][0])).join(", ") + ")" : ""} · target ${view.target}</div>`);
    out.push(map(view, ctx));
    const rows = [];
    for (let s = 0; s < ctx.players; s++) {
      const bids = ctx.seat === null ? view.private[s].my_bids : s === ctx.seat ? view.my_bids : null;
      const shown = view.revealed[s];
      const cells = SHIPS.map((_, n) => {
        const open = shown && n < shown.length;
        const value = open ? shown[n] : bids ? bids[n] : null;
        return `<td class="${open ? "open" : "hidden"}">${value === null ? "·" : rum(value)}</td>`;
      }).join("");
      const mine = ctx.seat === null ? view.private[s].my_tiebreaker : s === ctx.seat ? view.my_tiebreaker : null;
      const tb = view.tiebreakers[s] !== null ? `<b>${rum(view.tiebreakers[s])}</b>` : mine !== null && mine !== undefined ? `<span class="hidden">${rum(mine)}</span>` : "·";
      rows.push(`<tr><td>${ctx.who(s)} (${SEAT_COLOUR[s]}${s === ctx.seat && ctx.name(s) !== "you" ? ", you" : ""})</td><td><b>${view.scores[s]}</b></td>${cells}<td>${tb}</td></tr>`);
    }
    out.push(`<table class="bids"><thead><tr><th>seat</th><th>score</th>${SHIPS.map((n) => `<th>${n}</th>`).join("")}<th>tie-breaker</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
      `<div class="kv">bold: revealed; grey: still secret (shown only to its owner and in the omniscient view)</div>`);
    return out.join("");
  };

  function event(e, ctx) {
    switch (e.type) {
      case "bribes": return `round ${e.round}: every seat has assigned its rum cards to the ships`;
      case "reveal": {
        const bids = ArenaText.list(e.cards.map((c, s) => `${ctx.who(s)} ${rum(c)}`));
        let result;
        if (e.winner !== null && e.winner !== undefined) result = `${ctx.who(e.winner)} moves it ${e.steps} step${e.steps === 1 ? "" : "s"}`;
        else if (e.tied && e.tied.length && e.deciding && e.deciding.length) result = `a tie between ${ArenaText.list(e.tied.map((s) => ctx.who(s)))}: they decide whether to reveal their tie-breakers`;
        else if (e.tied && e.tied.length) result = `a tie between ${ArenaText.list(e.tied.map((s) => ctx.who(s)))} nobody can break: the ship stays`;
        else result = "nobody wins it: the ship stays";
        return `${ship(e.ship)}: bids ${bids} → ${result}`;
      }
      case "tiebreak": return `${ship(e.ship)}'s tie-breakers: ${ArenaText.list(e.cards.map((c, s) => [s, c]).filter(([s]) => e.cards[s] !== undefined).map(([s, c]) => `${ctx.who(s)} ${rum(c)}`))} → ` +
        (e.winner === null || e.winner === undefined ? "still tied: the ship stays" : `${ctx.who(e.winner)} moves it ${e.steps} step${e.steps === 1 ? "" : "s"}`);
      case "move": return `${ship(e.ship)} sails from ${areaName(ctx, e.from)} to ${areaName(ctx, e.to)}`;
      case "loot": return `${ship(e.ship)} loots ${chestName(ctx, e.chest)}; ${ctx.who(e.player)} gains ${e.gain}`;
      case "rob": return `${ship(e.ship)} robs ${ship(e.other)} of ${chestName(ctx, e.got)}`;
      case "exchange": return `${ship(e.ship)} and ${ship(e.other)} swap chests: ${ship(e.ship)} gives ${chestName(ctx, e.gave)} and gets ${chestName(ctx, e.got)}`;
      case "hand": return `${ship(e.ship)} hands ${chestName(ctx, e.gave)} to ${ship(e.other)}`;
      case "deliver": return `${ship(e.ship)} delivers ${chestName(ctx, e.chest)} into ${areaName(ctx, e.area)}: ${ctx.who(e.owner)} gains ${e.gain}`;
      case "move_end": return `${ship(e.ship)}'s move ends`;
      case "end": return `${ship(e.ship)}'s move ends <span class="muted">(the protocol 1.x copy of move_end)</span>`;
      case "round_end": return `round ${e.round} ends` + (e.chests && e.chests.length ? `; chests come onto ${ArenaText.list(e.chests.map((c) => areaName(ctx, c)))}` : "");
      case "game_end": return `game over after round ${e.round}: ${ArenaText.list(e.scores.map((score, s) => `${ctx.who(s)} ${score}`))}`;
      default: return null;
    }
  }

  function action(kind, a, ctx, before, seat, brief) {
    if (kind === "bribe") {
      if (!Array.isArray(a)) return null;
      const left = [-1, 0, 1, 2, 3, 4, 5].find((v) => !a.includes(v));
      return brief ? "bribes the ships" : `bribes ${a.map((v, n) => `${SHIPS[n]} ${rum(v)}`).join(", ")}; keeps ${rum(left === undefined ? null : left)} as the tie-breaker`;
    }
    if (kind === "tiebreak") return a === "reveal" ? (brief ? "reveal" : "reveals the tie-breaker") : (brief ? "keep" : "keeps the tie-breaker hidden");
    if (kind !== "move" || !Array.isArray(a)) return null;
    switch (a[0]) {
      case "move": return (brief ? "→ " : "sails to ") + areaName(ctx, a[1]);
      case "loot": return brief ? "loot" : "loots the chest on this port";
      case "rob": return (brief ? "rob " : "robs ") + ship(a[1]);
      case "exchange": return (brief ? "swap with " : "swaps chests with ") + ship(a[1]);
      case "hand": return (brief ? "hand to " : "hands the chest to ") + ship(a[1]);
      case "deliver": return brief ? "deliver" : "delivers the chest here";
      case "end": return brief ? "end" : "ends the move";
      default: return null;
    }
  }

  /* What a choice leads to (the play page shows it beside the choice). */
  function explain(kind, a, ctx, view, seat) {
    if (kind === "bribe") return "On each ship the highest card wins control of it: its owner moves the ship up to that many steps, " +
      "one step less for each thief (−1) on the ship, and may loot, rob, swap or deliver chests on the way. Equal highest cards: " +
      "those players may reveal their tie-breakers, the highest wins.";
    if (kind === "tiebreak") return a === "reveal" ? "everyone sees your tie-breaker card; the highest revealed card wins the ship" :
      "your tie-breaker stays secret and you give up this ship";
    if (kind !== "move" || !Array.isArray(a)) return "";
    switch (a[0]) {
      case "move": return "the ship sails there (one step of its move)";
      case "loot": return "the chest goes onto the ship and you gain 2000";
      case "rob": return `the ship takes ${ship(a[1])}'s chest`;
      case "exchange": return `the ship and ${ship(a[1])} swap chests`;
      case "hand": return `${ship(a[1])} gets the ship's chest`;
      case "deliver": return "the chest is unloaded into this hideout: the hideout's owner gains its value";
      case "end": return "the ship stops; the next ship's move follows";
      default: return "";
    }
  }

  /* The end: why the game ended, and each seat's score as its loots and deliveries. */
  function outcome(view, events, ctx) {
    const end = events.find((e) => e.type === "game_end");
    const round = end ? end.round : view.round;
    const reached = view.scores.map((x, s) => [x, s]).filter(([x]) => x >= view.target);
    const why = reached.length ? `${ArenaText.list(reached.map(([, s]) => ctx.who(s)))} reached the target of ${view.target} doubloons in round ${round}: the game ended after that round.` :
      round >= view.max_rounds ? `Nobody reached the target of ${view.target} doubloons; the game ended after round ${round}, the last (max_rounds ${view.max_rounds}).` :
      `The game ended in round ${round} before anyone reached the target of ${view.target} doubloons.`;
    const rows = Array.from({length: ctx.players}, (_, s) => {
      const loots = events.filter((e) => e.type === "loot" && e.player === s);
      const delivered = events.filter((e) => e.type === "deliver" && e.owner === s);
      const parts = [];
      if (loots.length) parts.push(`${loots.length} loot${loots.length === 1 ? "" : "s"} × 2000`);
      if (delivered.length) parts.push(`delivered chests ${delivered.map((e) => e.gain).join(" + ")}`);
      const counted = loots.reduce((n, e) => n + e.gain, 0) + delivered.reduce((n, e) => n + e.gain, 0);
      const rest = view.scores[s] - counted;
      if (rest) parts.push(`${rest} otherwise`);
      return `<li>${ctx.who(s)}: <b>${view.scores[s]}</b> = ${parts.join(" + ") || "0 (nothing looted or delivered)"}</li>`;
    });
    return `<p>${why} Doubloons come from looting a port (2000 to whoever moves the ship) and from a chest delivered into a hideout (its value, to the hideout's owner).</p>` +
      `<ul class="breakdown">${rows.join("")}</ul>`;
  }

  ArenaDescribers["karibik"] = {
    explain,
    outcome,
    colours: SEAT_COLOUR.map((c) => COLOUR[c][1]),
    secret: ["bribe", "tiebreak"],
    event,
    group(events) {
      const groups = [];
      for (let i = 0; i < events.length; i++) {
        const next = events[i + 1];
        if (events[i].type === "move_end" && next && next.type === "end" && next.ship === events[i].ship) { groups.push([events[i], next]); i++; }
        else groups.push([events[i]]);
      }
      return groups;
    },
    groupSentence(group, ctx) { return event(group[0], ctx); },
    decision(kind, seat, ctx, view) {
      if (kind === "bribe") return "bribes the six ships with rum cards (secretly, all at once)";
      if (kind === "tiebreak") return `decides whether to reveal the tie-breaker for ${view && view.ship !== null && view.ship !== undefined ? ship(view.ship) : "the tied ship"}`;
      if (kind === "move") return view && view.ship !== null && view.ship !== undefined ? `moves ${ship(view.ship)} (${view.steps_left} step${view.steps_left === 1 ? "" : "s"} left)` : "moves the ship";
      return null;
    },
    action(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, false); },
    brief(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, true); },
    legend(ctx) {
      const dot = (fill, extra) => `<svg width="16" height="16" viewBox="-8 -8 16 16"><circle r="7" fill="${fill}" stroke="#4a6a80" ${extra || ""}/></svg>`;
      const hideouts = SEAT_COLOUR.slice(0, ctx.players).map((c, s) => `<span class="lg">${dot(COLOUR[c][0])} ${ctx.who(s)}'s hideouts (${c})</span>`).join("");
      const unused = ctx.players < 4 ? `<span class="lg">${dot(FILL.sea)} <span class="muted">${SEAT_COLOUR.slice(ctx.players).join(", ")} hideouts: plain sea with ${ctx.players} players</span></span>` : "";
      const shipIcon = (fill, stroke, width, text) => `<svg width="34" height="18" viewBox="-1 -1 34 18"><rect x="1" y="1" width="${text.length > 1 ? 30 : 24}" height="15" rx="4" fill="${fill}" stroke="${stroke}" stroke-width="${width}"/>` +
        `<text x="8" y="13" font-size="11" font-weight="bold" text-anchor="middle">${text[0]}</text>${text.length > 1 ? `<text x="18" y="13" font-size="8">${text.slice(1)}</text>` : ""}</svg>`;
      return `<div class="legend-cards">` +
        `<span class="lg">${dot(FILL.port, 'stroke="#7a5a2a" stroke-width="1.6"')} <b>port</b> <span class="muted">(its chest: 4000-8000)</span></span>` +
        `<span class="lg"><svg width="16" height="14" viewBox="0 0 16 14"><rect x="1" y="1" width="13" height="11" rx="2" fill="#ffd54a" stroke="#7a5a00"/><text x="7.5" y="10" font-size="8" text-anchor="middle" font-weight="bold">6</text></svg> a chest on its port (6 = 6000)</span>` +
        hideouts + unused +
        `<span class="lg">${dot(FILL.start, 'stroke-dasharray="3 2"')} start area</span><span class="lg">${dot(FILL.sea)} open sea</span>` +
        `<span class="lg">${shipIcon("#fff", "#222", 1.2, "A")} a ship (its initial)</span><span class="lg">${shipIcon("#ffd54a", "#222", 1.2, "B6")} carrying a chest (6000)</span>` +
        `<span class="lg">${shipIcon("#fff", "#d00", 2.5, "C")} the ship being moved</span></div>` +
        `<div class="muted">Ships: ${SHIPS.map((n) => `<b>${n[0]}</b> ${n}`).join(", ")} (their order in a round). Numbers in circles: area ids (the actions' numbers). ` +
        `Rum cards ${rum(5)} … ${rum(0)}, ${rum(-1)} the thief (one step less for the winner). A faded port name: its chest was delivered.</div>`;
    },
  };
})();
