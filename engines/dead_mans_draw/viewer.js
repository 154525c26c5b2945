/* Dead Man's Draw in the replay viewer (arena report / arena view): play area, banks by
   suit, draw and discard piles, characters, pending decision. `view` is one seat's
   observation (protocol/games/dead-mans-draw.md) or, with ctx.seat null, the omniscient
   view (adds draw_pile, bottom first, and every seat's private part under `private`). */
"use strict";
ArenaRenderers["dead-mans-draw"] = function (view, ctx) {
  const esc = ctx.esc;
  const SUIT = {A: "Anchor", H: "Hook", C: "Cannon", K: "Key", T: "Chest", M: "Map", O: "Oracle", S: "Sword", X: "Kraken", N: "Mermaid"};
  const card = (name, cls) => `<span class="card ${cls || ""}" title="${esc(SUIT[name[0]] || "")} ${esc(name.slice(1))}">${esc(name)}</span>`;
  const cards = (list, cls) => (list || []).map((c) => card(c, cls)).join("") || '<span class="muted">none</span>';
  const omni = ctx.seat === null;
  const out = [];
  const p = view.pending;
  out.push(`<div class="kv">phase <b>${esc(view.phase)}</b> · turn: <b style="color:${ctx.colour(view.turn)}">${esc(ctx.bots[view.turn] || "seat " + view.turn)}</b>` +
    (view.kraken ? ` · Kraken: ${view.kraken} more to place` : "") + (view.harbour ? ` · Safe Harbour: ${view.harbour}` : "") + "</div>");
  if (p) out.push(`<div class="pile"><b>decision</b> ${esc(ctx.bots[p.seat] || "seat " + p.seat)} chooses <b>${esc(p.kind)}</b>: ` +
    p.legal.map((a) => `<code>${esc(JSON.stringify(a))}</code>`).join(" ") + (p.cards ? " · cards " + cards(p.cards) : "") + "</div>");
  const drawn = omni ? (view.draw_pile || []).slice().reverse() : view.draw_known;
  out.push(`<div class="pile"><b>draw pile</b> ${view.draw_size} cards` +
    (drawn && drawn.length ? ` · ${omni ? "from the top" : "known top"}: ${cards(drawn.slice(0, omni ? 12 : drawn.length), omni ? "dim" : "")}${omni && drawn.length > 12 ? " …" : ""}` : "") + "</div>");
  out.push(`<div class="pile"><b>play area</b> ${view.row.length ? view.row.map((c, i) => card(c, view.protected[i] ? "prot" : "")).join("") : '<span class="muted">empty</span>'}</div>`);
  out.push(`<div class="pile"><b>discard</b> ${view.discard.length} cards: ${cards(view.discard, "dim")}</div>`);
  for (let s = 0; s < ctx.players; s++) {
    const bank = view.banks[s] || {};
    const stacks = Object.keys(bank).map((suit) => `<div>${esc(SUIT[suit] || suit)}: ${cards(bank[suit])}</div>`).join("") || '<span class="muted">empty bank</span>';
    let character = view.characters[s] ? esc(view.characters[s]) : "";
    const dealt = omni ? view.private[s].dealt : (s === ctx.seat ? view.dealt : null);
    if (!character && dealt) character = "choosing: " + dealt.map(esc).join(" / ");
    const locker = view.locker[s] !== null && view.locker[s] !== undefined ? ` · Locker on seat ${view.locker[s]}` : "";
    const acting = (p && p.seat === s) || view.turn === s;
    out.push(`<div class="seatbox ${acting ? "acting" : ""}" style="border-color:${ctx.colour(s)}">` +
      `<b>${esc(ctx.bots[s] || "seat " + s)}</b> (seat ${s}${s === ctx.seat ? ", you" : ""}) · score <b>${view.scores[s]}</b>` +
      `<div class="kv">${character || "no character"}${locker}</div>${stacks}</div>`);
  }
  return out.join("");
};
