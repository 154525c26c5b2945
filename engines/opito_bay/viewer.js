/* Opito Bay in the replay viewer (arena report / arena view): each seat's table (treasures
   and what lies on them), hands where visible, the deal score as it changes. `view` is one
   seat's observation (protocol/games/opito-bay.md) or, with ctx.seat null, the omniscient
   view (adds library_order, bottom first, and every seat's private part under `private`). */
"use strict";
ArenaRenderers["opito-bay"] = function (view, ctx) {
  const esc = ctx.esc;
  const RED = {D: 1, H: 1};
  const card = (name, cls, title) => `<span class="card ${cls || ""}" ${title ? `title="${esc(title)}"` : ""} style="${RED[name[1]] ? "color:#c00" : ""}">${esc(name === "X" ? "Jkr" : name.replace("T", "10"))}</span>`;
  const omni = ctx.seat === null;
  const out = [];
  out.push(`<div class="kv">deal <b>${view.deal}</b>${view.deals ? " of " + view.deals : ""} · target ${view.target} · ` +
    (view.turn === null ? "<b>game over</b>" : `turn: <b style="color:${ctx.colour(view.turn)}">${esc(ctx.bots[view.turn] || "seat " + view.turn)}</b>, decision <b>${esc(view.decision)}</b>`) + "</div>");
  if (view.pending) out.push(`<div class="pile"><b>pending</b> ${card(view.pending.card)} as ${esc(view.pending.as)}${view.swap_from !== null ? " · swapping treasure #" + view.swap_from : ""}</div>`);
  const library = omni ? (view.library_order || []).slice().reverse() : [];
  out.push(`<div class="pile"><b>library</b> ${view.library} cards` +
    (omni && library.length ? ": " + library.slice(0, 10).map((c) => card(c, "dim")).join("") + (library.length > 10 ? " …" : "") : "") +
    (!omni && view.library_top.length ? " · you know the top: " + view.library_top.map((c) => c === null ? '<span class="card back">?</span>' : card(c)).join("") : "") + "</div>");
  if (view.looking && view.looking.length) out.push(`<div class="pile"><b>spyglass</b> ${view.looking.map((c) => card(c)).join("")}</div>`);
  out.push(`<div class="pile"><b>graveyard</b> ${view.graveyard.map((c) => card(c, "dim")).join("") || '<span class="muted">empty</span>'}</div>`);
  const children = {};
  for (const node of view.table) if (node.on !== null) (children[node.on] = children[node.on] || []).push(node);
  const stack = (node) => `<div style="display:inline-block;vertical-align:top;margin-right:6px">` +
    card(node.card, node.live ? "" : "dim", `#${node.id} as ${node.as}${node.live ? "" : " (not scoring)"}`) +
    (children[node.id] || []).map((c) => "<br>" + stack(c)).join("") + "</div>";
  for (let s = 0; s < ctx.players; s++) {
    const hand = omni ? view.private[s].hand : s === ctx.seat ? view.hand : null;
    const shown = hand ? hand.map((c) => card(c)).join("") : '<span class="card back">?</span>'.repeat(view.hand_sizes[s]);
    const roots = view.table.filter((n) => n.on === null && n.owner === s);
    out.push(`<div class="seatbox ${view.turn === s ? "acting" : ""}" style="border-color:${ctx.colour(s)}">` +
      `<b>${esc(ctx.bots[s] || "seat " + s)}</b> (seat ${s}${s === ctx.seat ? ", you" : ""}) ${card(view.aces[s])}` +
      `<div class="kv">deal score <b>${view.deal_points[s]}</b> · total <b>${view.totals[s]}</b></div>` +
      `<div>hand: ${shown || '<span class="muted">empty</span>'}</div><div>table: ${roots.map(stack).join("") || '<span class="muted">nothing</span>'}</div></div>`);
  }
  if (view.deal_history.length) out.push(`<div class="kv">earlier deals: ${view.deal_history.map((d, i) => `#${i + 1}: ${d.join(" / ")}`).join(" · ")}</div>`);
  return out.join("");
};
