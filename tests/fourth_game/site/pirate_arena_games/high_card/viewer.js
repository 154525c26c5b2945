/* High Card (the tests' fourth game): its drawing and words for the replay viewer and the play
   page (ArenaRenderers / ArenaDescribers, see arena/report/assets/describe.js). */
"use strict";
window.ArenaRenderers = window.ArenaRenderers || {};
window.ArenaDescribers = window.ArenaDescribers || {};
(function () {
  const esc = (value) => String(value).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

  ArenaRenderers["high-card"] = function (view, ctx) {
    const out = [`<div class="kv">trick led by ${ctx.who(view.leader)}: ` +
      (view.trick.length ? view.trick.map(([s, card]) => `${ctx.who(s)} ${esc(card)}`).join(", ") : "no card yet") + "</div>"];
    if (view.undealt) out.push(`<div class="pile"><b>undealt</b> ${view.undealt.map(esc).join(" ")}</div>`);
    for (let s = 0; s < ctx.players; s++) {
      const hand = s === view.seat ? view.hand.map(esc).join(" ") : `${view.hand_sizes[s]} cards`;
      out.push(`<div class="seatbox" style="border-color:${ctx.colour(s)}">${ctx.who(s)} · points <b>${view.points[s]}</b> · ${hand}</div>`);
    }
    return out.join("");
  };

  ArenaDescribers["high-card"] = {
    event(data, ctx) {
      if (data.type === "deal") return `${ctx.who(data.seat)} is dealt ${data.cards.map(esc).join(" ")}`;
      if (data.type === "play") return `${ctx.who(data.seat)} plays ${esc(data.card)}`;
      if (data.type === "trick") return `${ctx.who(data.winner)} wins the trick`;
      return esc(JSON.stringify(data));
    },
    decision(kind, seat, ctx) { return `${ctx.who(seat)} chooses a card to play`; },
    action(kind, action) { return `plays ${esc(action)}`; },
    brief(kind, action) { return esc(action); },
  };
})();
