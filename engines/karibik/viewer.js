/* Karibik in the replay viewer (arena report / arena view): the map with ships, chests and
   hideouts; the bribes revealed this round. `view` is one seat's observation
   (protocol/games/karibik.md) or, with ctx.seat null, the omniscient view (adds reserve_order
   and every seat's private part under `private`). */
"use strict";
ArenaRenderers["karibik"] = function (view, ctx) {
  const esc = ctx.esc;
  const SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"];
  const COLOUR = {red: "#d33", blue: "#36c", green: "#2a2", yellow: "#ec0"};
  const SEAT_COLOUR = ["red", "blue", "green", "yellow"];
  const areas = view.board.areas;
  const ports = areas.map((a, i) => i).filter((i) => areas[i][1] === "port");
  const chestOf = {};
  ports.forEach((port, i) => { chestOf[port] = view.chests[i]; });
  const S = 9;
  const svg = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="-20 -20 ${101 * S + 40} ${58 * S + 40}" width="100%" style="max-width:740px;background:#eaf6fb" font-size="9" font-family="sans-serif">`];
  view.board.adjacent.forEach((near, a) => near.forEach((b) => {
    if (b > a) svg.push(`<line x1="${areas[a][3] * S}" y1="${areas[a][4] * S}" x2="${areas[b][3] * S}" y2="${areas[b][4] * S}" stroke="#9bbdd3"/>`);
  }));
  areas.forEach(([name, kind, extra, x, y], id) => {
    const fill = kind === "hideout" ? (COLOUR[extra] || "#999") : kind === "port" ? "#c8a165" : kind === "start" ? "#9fd3f0" : "#cfe9f7";
    svg.push(`<g><title>${esc(name)} (${esc(kind)}${kind === "port" ? ", chest " + extra + ", " + chestOf[id] : ""})</title>` +
      `<circle cx="${x * S}" cy="${y * S}" r="11" fill="${fill}" stroke="#345"/><text x="${x * S}" y="${y * S + 3}" text-anchor="middle">${id}</text>` +
      `<text x="${x * S}" y="${y * S + 21}" text-anchor="middle" fill="#345">${esc(name)}</text></g>`);
    if (kind === "port" && chestOf[id] === "port") svg.push(`<rect x="${x * S + 7}" y="${y * S - 16}" width="9" height="9" fill="gold" stroke="#540"><title>chest ${extra}</title></rect>`);
  });
  view.ships.forEach(([area, chest], ship) => {
    const [, , , x, y] = areas[area];
    const active = view.ship === ship;
    svg.push(`<g><title>${SHIPS[ship]}${chest !== null ? " carrying the chest of " + esc(areas[chest][0]) + " (" + areas[chest][2] + ")" : ""}</title>` +
      `<rect x="${x * S - 22 + ship % 2 * 4}" y="${y * S - 22}" width="15" height="12" fill="${chest !== null ? "gold" : "white"}" stroke="${active ? "#e00" : "black"}" stroke-width="${active ? 2.5 : 1}"/>` +
      `<text x="${x * S - 14.5 + ship % 2 * 4}" y="${y * S - 13}" text-anchor="middle" font-weight="bold">${SHIPS[ship][0]}</text></g>`);
  });
  svg.push("</svg>");
  const out = [];
  out.push(`<div class="kv">round <b>${view.round}</b> / ${view.max_rounds} · phase <b>${esc(view.phase)}</b>` +
    (view.ship !== null ? ` · ship <b>${SHIPS[view.ship]}</b>` : "") +
    (view.controller !== null ? ` · moved by <b>${esc(ctx.bots[view.controller] || "seat " + view.controller)}</b>, ${view.steps_left} steps left` : "") +
    (view.tied.length ? ` · tie between ${view.tied.map((s) => esc(ctx.bots[s] || s)).join(", ")}` : "") +
    ` · reserve ${view.reserve_pairs} pairs${ctx.seat === null && view.reserve_order ? " (" + view.reserve_order.map((p) => esc(areas[p][0])).join(", ") + ")" : ""} · target ${view.target}</div>`);
  out.push(svg.join(""));
  const rows = [];
  for (let s = 0; s < ctx.players; s++) {
    const bids = ctx.seat === null ? view.private[s].my_bids : s === ctx.seat ? view.my_bids : null;
    const shown = view.revealed[s];
    const cells = SHIPS.map((_, ship) => {
      const open = shown && ship < shown.length;
      const value = open ? shown[ship] : bids ? bids[ship] : null;
      return `<td style="${open ? "font-weight:bold" : "color:#888"}">${value === null ? "·" : value}</td>`;
    }).join("");
    const tb = view.tiebreakers[s] !== null ? `<b>${view.tiebreakers[s]}</b>` :
      ctx.seat === null ? (view.private[s].my_tiebreaker ?? "·") : s === ctx.seat ? (view.my_tiebreaker ?? "·") : "·";
    rows.push(`<tr><td style="color:${COLOUR[SEAT_COLOUR[s]]}"><b>${esc(ctx.bots[s] || "seat " + s)}</b> (${SEAT_COLOUR[s]}${s === ctx.seat ? ", you" : ""})</td>` +
      `<td><b>${view.scores[s]}</b></td>${cells}<td>${tb}</td></tr>`);
  }
  out.push(`<table><thead><tr><th>seat</th><th>score</th>${SHIPS.map((n) => `<th>${n}</th>`).join("")}<th>tie-breaker</th></tr></thead><tbody>${rows.join("")}</tbody></table>` +
    `<div class="kv">bold: revealed; grey: still secret (shown only to its owner and in the omniscient view)</div>`);
  return out.join("");
};
