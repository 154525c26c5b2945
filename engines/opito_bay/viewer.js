/* Opito Bay in the replay viewer (arena report / arena view) and any page built on it: the
   drawing (ArenaRenderers: each seat's table, treasures and what lies on them, hands where
   visible, the deal score) and the words (ArenaDescribers: events, decisions and actions as
   sentences, the legend; see arena/report/assets/describe.js). `view` is one seat's
   observation (protocol/games/opito-bay.md) or, with ctx.seat null, the omniscient view (adds
   library_order, bottom first, and every seat's private part under `private`). */
"use strict";
(() => {
  /* suit letter: [symbol, colour, name, compass point] (a four-colour deck: no two suits alike) */
  const SUITS = {D: ["♦", "#1258b8", "diamonds", "North"], S: ["♠", "#222222", "spades", "East"],
                 C: ["♣", "#1e7b2a", "clubs", "South"], H: ["♥", "#c62828", "hearts", "West"]};
  const JOKER = ["★", "#8e24aa"];
  const RANKS = {T: "10", J: "J", Q: "Q", K: "K", A: "A"};
  const RANK_NAMES = {J: "Jack", Q: "Queen", K: "King", A: "Ace", T: "10"};
  const TREASURES = new Set(["2", "4", "6", "8", "T"]);
  const esc = ArenaText.esc;
  const rank = (r) => RANKS[r] || r;
  const num = (n) => (n < 0 ? "−" + Math.abs(n) : String(n));

  /* A card ("8D", "TH", "X" a Joker) with its suit's symbol and colour. */
  const card = (name, cls, title) => {
    if (name === null || name === undefined) return '<span class="card back">?</span>';
    if (name === "X") return `<span class="card ${cls || ""}" style="color:${JOKER[1]};border-color:${JOKER[1]}" title="${esc(title || "Joker (X)")}">${JOKER[0]}</span>`;
    const suit = SUITS[name[1]];
    if (!suit) return `<span class="card ${cls || ""}">${esc(name)}</span>`;
    return `<span class="card ${cls || ""}" style="color:${suit[1]};border-color:${suit[1]}" ` +
      `title="${esc(title || `${RANK_NAMES[name[0]] || name[0]} of ${suit[2]} (${name})`)}">${esc(rank(name[0]))}${suit[0]}</span>`;
  };
  const cards = (list) => (list || []).map((c) => card(c)).join("") || '<span class="muted">none</span>';
  /* A card played: the card, and "as K" for a Joker ("X" + rank in an action). */
  const played = (text, as) => {
    if (text[0] === "X") return `${card("X")} as ${esc(rank(as || text[1] || "?"))}`;
    return card(text);
  };
  /* Table card `id` named from the views at hand (before the step first: ids restart each deal). */
  const tableCard = (id, ctx) => {
    for (const view of [ctx.before, ctx.view]) {
      const node = view && view.table && view.table[id];
      if (node && node.id === id) return `${card(node.card)}${node.card === "X" ? " as " + esc(rank(node.as)) : ""}`;
    }
    return `#${esc(id)}`;
  };
  /* Table card `id` said with whose it is: "anna's 4♣", "the 3♦ on anna's 4♣" (a person's own,
     on the play page: "your 4♣", ArenaText.toYou); from the views at hand as tableCard. */
  const whose = (id, ctx) => {
    for (const view of [ctx.before, ctx.view]) {
      const nodes = view && view.table;
      const node = nodes && nodes[id];
      if (!node || node.id !== id) continue;
      const named = `${card(node.card)}${node.card === "X" ? " as " + esc(rank(node.as)) : ""}`;
      if (node.on !== null && nodes[node.on]) return `the ${named} on ${whose(node.on, {who: ctx.who, before: view})}`;
      return `${ctx.who(node.owner)}'s ${named}`;
    }
    return `#${esc(id)}`;
  };
  /* The node of table card `id` in `view`, or null. */
  const nodeOf = (id, view) => {
    const node = view && view.table && view.table[id];
    return node && node.id === id ? node : null;
  };

  ArenaRenderers["opito-bay"] = function (view, ctx) {
    const omni = ctx.seat === null;
    const out = [];
    out.push(`<div class="kv">deal <b>${view.deal}</b>${view.deals ? " of " + view.deals : ""} · target ${view.target} · ` +
      (view.turn === null ? "<b>game over</b>" : `turn: ${ctx.who(view.turn)}`) + "</div>");
    if (view.pending) out.push(`<div class="pile"><b>being played</b> ${played(view.pending.card, view.pending.as)}` +
      `${view.swap_from !== null ? " · swapping away " + tableCard(view.swap_from, {view}) : ""}</div>`);
    const library = omni ? (view.library_order || []).slice().reverse() : [];
    out.push(`<div class="pile"><b>library</b> ${view.library} cards` +
      (omni && library.length ? ": " + library.slice(0, 10).map((c) => card(c, "dim")).join("") + (library.length > 10 ? " …" : "") : "") +
      (!omni && view.library_top.length ? " · you know the top: " + view.library_top.map((c) => card(c)).join("") : "") + "</div>");
    if (view.looking && view.looking.length) out.push(`<div class="pile"><b>spyglass</b> ${cards(view.looking)}</div>`);
    out.push(`<div class="pile"><b>graveyard</b> ${view.graveyard.map((c) => card(c, "dim")).join("") || '<span class="muted">empty</span>'}</div>`);
    const children = {};
    for (const node of view.table) if (node.on !== null) (children[node.on] = children[node.on] || []).push(node);
    const stack = (node) => `<div class="stack">` +
      card(node.card, node.live ? "" : "dim", `#${node.id}: ${node.card === "X" ? "Joker" : node.card} as ${node.as}${node.live ? "" : " (cancelled: not scoring)"}`) +
      (node.card === "X" ? `<sub>as ${esc(rank(node.as))}</sub> ` : "") + `<sub class="id">#${node.id}</sub>` +
      (children[node.id] || []).map((c) => "<br>" + stack(c)).join("") + "</div>";
    for (let s = 0; s < ctx.players; s++) {
      const hand = omni ? view.private[s].hand : s === ctx.seat ? view.hand : null;
      const shown = hand ? hand.map((c) => card(c)).join("") : '<span class="card back">?</span>'.repeat(view.hand_sizes[s]);
      const roots = view.table.filter((n) => n.on === null && n.owner === s);
      const ace = SUITS[view.aces[s][1]];
      out.push(`<div class="seatbox ${view.turn === s ? "acting" : ""}" style="border-color:${ctx.colour(s)}">` +
        `${ctx.whoAt(s, s === ctx.seat && ctx.name(s) !== "you" ? "you" : "")} ${card(view.aces[s])} <span class="muted">${ace ? ace[3] : ""}</span>` +
        `<div class="kv">deal score <b>${num(view.deal_points[s])}</b> · total <b>${num(view.totals[s])}</b></div>` +
        `<div>hand: ${shown || '<span class="muted">empty</span>'}</div><div>table: ${roots.map(stack).join("") || '<span class="muted">nothing</span>'}</div></div>`);
    }
    if (view.deal_history.length) out.push(`<div class="kv">earlier deals: ${view.deal_history.map((d, i) => `#${i + 1}: ${d.map(num).join(" / ")}`).join(" · ")}</div>`);
    return out.join("");
  };

  function playEvent(e, ctx) {
    const who = ctx.who(e.seat);
    const what = played(e.card, e.as);
    const tail = e.drew ? ", then draws a card" : "";
    const as = e.as;
    if (TREASURES.has(as)) return `${who} plays ${what} as a treasure${tail}`;
    if (as === "3" || as === "7") return `${who} plays ${what} on ${tableCard(e.on, ctx)}, ${as === "3" ? "doubling" : "halving"} it${tail}`;
    if (as === "K") return `${who} plays ${what} on ${tableCard(e.on, ctx)}, cancelling it${tail}`;
    if (as === "Q") return `${who} puts ${what} in front of ${ctx.who(e.owner)} (−2000 for them, −4000 if it is of the suit of ${ctx.who(e.owner)}'s Ace)${tail}`;
    if (as === "9") return `${who} plays ${what}: swaps their ${tableCard(e.swap[0], ctx)} with ${ctx.who(e.other)}'s ${tableCard(e.swap[1], ctx)}${tail}`;
    if (as === "J") return e.target === null || e.target === undefined ? `${who} plays ${what}: no effect (the library holds fewer than 5 cards)${tail}` :
      `${who} plays ${what}: ${ctx.who(e.target)} puts ${e.returned} card${e.returned === 1 ? "" : "s"} under the library and draws 5${tail}`;
    if (as === "5") return `${who} plays ${what} and looks at ${e.look ? `the top ${e.look === 1 ? "card" : e.look + " cards"} of the library` :
      "the library: it is empty"}${tail}`;
    return `${who} plays ${what}${tail}`;
  }

  function event(e, ctx) {
    const who = ctx.who(e.seat);
    switch (e.type) {
      case "seats": return "Aces drawn: " + ArenaText.list(e.aces.map((a, s) => `${ctx.who(s)} ${card(a)} (${SUITS[a[1]] ? SUITS[a[1]][3] : "?"})`)) +
        "; play order " + e.order.map((s) => ctx.who(s)).join(" → ");
      case "deal": return `deal ${e.deal} begins; the library holds ${e.library} cards`;
      case "hand": return `${who}'s new hand: ${cards(e.cards)}`;
      case "play": return playEvent(e, ctx);
      case "discard": return `${who} discards ${card(e.card)} (no card can be played)${e.drew ? ", then draws a card" : ""}`;
      case "seen": return e.cards && e.cards.length ? `${who} sees ${cards(e.cards)} (top first)` : `${who} sees no card (the library is empty)`;
      case "drew": return `${who} draws ${card(e.card)}`;
      case "score": return `deal ${e.deal} scored: ` + ArenaText.list(e.points.map((p, s) => `${ctx.who(s)} ${p >= 0 ? "+" : ""}${num(p)}`)) +
        "; totals " + ArenaText.list(e.totals.map((t, s) => `${ctx.who(s)} ${num(t)}`));
      case "end": return "game over: " + ArenaText.list(e.totals.map((t, s) => `${ctx.who(s)} ${num(t)} (rank ${e.ranks[s]})`));
      default: return null;
    }
  }

  function decision(kind, seat, ctx, view) {
    const pending = view && view.pending;
    const what = pending ? played(pending.card, pending.as) : "the card";
    switch (kind) {
      case "play": return "chooses a card to play";
      case "discard": return "must discard a card (none can be played)";
      case "target": return pending && pending.as === "K" ? `chooses the table card ${what} cancels` :
        `chooses the treasure ${what} goes on (${pending && pending.as === "7" ? "halving" : "doubling"} it)`;
      case "player": return pending && pending.as === "Q" ? `chooses in front of whom ${what} goes` :
        `chooses whose hand ${what} sends under the library (they draw 5)`;
      case "swap": return "chooses one of their treasures to swap away";
      case "swap_with": return "chooses another player's treasure to take in exchange";
      case "spyglass": return "puts the looked-at cards back in an order of their choice";
      default: return null;
    }
  }

  function action(kind, a, ctx, before, seat, brief) {
    const own = {who: ctx.who, before, view: before};
    switch (kind) {
      case "play": return (brief ? "" : "plays ") + played(a);
      case "discard": return (brief ? "" : "discards ") + card(a);
      case "target": {
        const target = whose(a, own);
        const pending = before && before.pending;
        if (brief || !pending) return (brief ? "→ " : "on ") + target;
        return `${pending.as === "K" ? "covers" : "puts " + played(pending.card, pending.as) + " on"} ${target}` +
          (pending.as === "K" ? " with " + played(pending.card, pending.as) : "");
      }
      case "player": {
        // a Queen goes in front of the player, a Jack renews their hand (no pending: a Jack's);
        // the brief names the seat, not "their" (a move list says it after the chooser's name)
        const queen = before && before.pending && before.pending.as === "Q";
        const self = a === seat;
        if (queen) return brief ? `→ in front of ${ctx.who(a)}` :
          `puts ${played(before.pending.card, "Q")} in front of ${self ? "themselves" : ctx.who(a)}`;
        return brief ? `→ ${ctx.who(a)}'s ${self ? "own " : ""}hand` : `chooses ${self ? "their own hand" : `${ctx.who(a)}'s hand`}`;
      }
      case "swap": return (brief ? "give " : "gives away ") + whose(a, own);
      case "swap_with": return (brief ? "take " : "takes ") + whose(a, own);
      case "spyglass": return (brief ? "order " : "puts back ") + cards(a) + (brief ? "" : " (top first)");
      default: return null;
    }
  }

  /* What a card does when played as `as` (the rules' table, docs/rules/opito-bay.md). */
  const EFFECT = {
    "2": "a treasure in front of you: 200, doubled in your Ace's suit", "4": "a treasure in front of you: 400, doubled in your Ace's suit",
    "6": "a treasure in front of you: 600, doubled in your Ace's suit", "8": "a treasure in front of you: 800, doubled in your Ace's suit",
    T: "a treasure in front of you: 1000, doubled in your Ace's suit", "3": "goes on a treasure (yours or another's) and doubles it",
    "7": "goes on a treasure (yours or another's) and halves it", "5": "you look at the top 5 cards of the library and put them back in the order you choose",
    "9": "swaps one of your treasures with another player's (with what lies on them)",
    J: "the player you choose (you too) gets 5 new cards from the library, the old hand going under it (no effect with fewer than 5 cards in the library)",
    Q: "goes in front of a player you choose: −2000 for them at scoring (−4000 if it is of the suit of that player's Ace)",
    K: "goes on a card on the table and cancels it for the rest of the deal",
  };
  const isTreasure = (node) => node.on === null && "2468T".includes(node.as);

  function explain(kind, a, ctx, view, seat) {
    const own = {who: ctx.who, before: view, view};
    const pending = view && view.pending;
    switch (kind) {
      case "play": return EFFECT[a[0] === "X" ? a[1] : a[0]] || "";
      case "discard": return "it goes to the graveyard (you must discard: no card in your hand can be played)";
      case "target": return pending && pending.as === "K" ? cancels(a, ctx, view) :
        `it is worth ${pending && pending.as === "7" ? "half" : "double"}` +
        (nodeOf(a, view) && !nodeOf(a, view).live ? " (though it counts nothing while the King on it stays)" : "");
      case "player": {
        if (pending && pending.as === "Q") {
          const ace = view.aces && view.aces[a];
          const same = ace && pending.card[1] === ace[1];
          return `${ctx.who(a)} loses ${same ? 4000 : 2000} at scoring` +
            (same ? ` (twice 2000: ${card(pending.card)} is of the suit of ${ctx.who(a)}'s Ace)` : "");
        }
        const size = view && view.hand_sizes ? view.hand_sizes[a] : null;
        const cards = size === null ? "the hand goes" : size === 1 ? "its one card goes" : `its ${size} cards go`;
        return `${cards} under the library and ${ctx.who(a)} draws 5 new cards`;
      }
      case "swap": return "it goes to the other player, with what lies on it";
      case "swap_with": return `it comes to you, with what lies on it` +
        (view && nodeOf(view.swap_from, view) ? `; ${whose(view.swap_from, own)} goes to ${ctx.who(nodeOf(a, view) ? nodeOf(a, view).owner : null)} in exchange` : "");
      default: return "";
    }
  }

  /* What a King on table card `id` does (rule [R]1), said of "it" (the action beside it names
     the card): a King covered is cancelled and what it covered counts again (unless another
     King lies on that too), a Queen's penalty is lifted, a 3 or 7 stops working, a treasure
     counts nothing; a card already cancelled stays so. */
  function cancels(id, ctx, view) {
    const own = {who: ctx.who, before: view, view};
    const node = nodeOf(id, view);
    if (!node) return "it stops counting for the rest of the deal";
    if (!node.live) return "it is cancelled already (a King lies on it): it stays cancelled";
    if (node.as === "K") {
      const covered = nodeOf(node.on, view);
      const other = (view.table || []).some((n) => n.on === node.on && n.id !== node.id && n.as === "K" && n.live);
      return "it is cancelled" + (!covered ? "" : other ? `; ${whose(node.on, own)} stays cancelled by another King` :
        `, so ${whose(node.on, own)} counts again`);
    }
    if (node.as === "Q") return "it costs nothing at scoring";
    if (node.as === "3" || node.as === "7") return `it no longer ${node.as === "3" ? "doubles" : "halves"} the treasure it lies on`;
    return "it counts nothing for the rest of the deal";
  }

  /* Cards in hand that are not among the legal plays, each with the reason (rule [R]4). */
  function unplayable(kind, view, legal, ctx) {
    if (kind !== "play" || !view || !view.hand) return [];
    const table = view.table || [];
    const treasures = table.filter(isTreasure);
    const mine = treasures.some((n) => n.owner === view.seat), theirs = treasures.some((n) => n.owner !== view.seat);
    const why = {
      "3": "no treasure on the table for it to lie on", "7": "no treasure on the table for it to lie on",
      K: "no card on the table for it to cover",
      "9": !mine && !theirs ? "no treasures on the table to swap" : !mine ? "you have no treasure to swap" : "no other player has a treasure to swap with",
    };
    return view.hand.filter((c) => !legal.some((a) => a === c || (c === "X" && a[0] === "X"))).map((c) => [card(c), why[c[0]] || "not playable now"]);
  }

  /* The end: why the game ended, each seat's deals and the last deal's table as values. */
  function outcome(view, events, ctx) {
    const deals = view.deal_history.length;
    const over = view.totals.map((t, s) => [t, s]).filter(([t]) => t > view.target);
    let why;
    if (view.deals) why = `The game was ${view.deals} deal${view.deals === 1 ? "" : "s"} long (the deals option).`;
    else if (over.length) why = `${ArenaText.list(over.map(([, s]) => ctx.who(s)))} passed the target of ${num(view.target)} in deal ${deals}: the game ended with that deal.`;
    else why = `The game stopped after ${deals} deals, the most it may last.`;
    const rows = Array.from({length: ctx.players}, (_, s) => {
      const ace = view.aces[s][1];
      const items = [];
      for (const node of table(view).filter((n) => n.on === null && n.owner === s)) {
        const on = view.table.filter((n) => n.on === node.id && n.live);
        if (!node.live) { items.push(` + ${card(node.card)} 0 (under a King)`); continue; }
        const same = node.card[1] === ace;
        if (node.as === "Q") { items.push(` − ${card(node.card)} ${same ? "4000 (a Queen of the Ace's suit)" : "2000 (a Queen)"}`); continue; }
        if (!isTreasure(node)) continue;
        const base = ({T: 10}[node.as] || Number(node.as)) * 100;
        const ups = on.filter((n) => n.as === "3").length, downs = on.filter((n) => n.as === "7").length;
        const power = ups - downs + (same ? 1 : 0);
        const times = (n, what) => (n === 1 ? `(${what})` : `(${n} ${what}s)`);
        const steps = [same ? "×2 (Ace's suit)" : "", ups ? `×${2 ** ups} ${times(ups, "3")}` : "", downs ? `÷${2 ** downs} ${times(downs, "7")}` : ""].filter(Boolean).join(" ");
        items.push(` + ${card(node.card)}${node.card === "X" ? " as " + esc(rank(node.as)) : ""} ${base}${steps ? " " + steps + " = " + num(base * Math.pow(2, power)) : ""}`);
      }
      const history = view.deal_history.map((points) => points[s]);
      return `<li>${ctx.who(s)}: total <b>${num(view.totals[s])}</b>` + (history.length > 1 ? ` = ${history.map(num).join(" + ")} (one per deal)` : "") +
        `<div class="stacks">last deal: ${num(view.deal_history.length ? view.deal_history[deals - 1][s] : 0)} = ` +
        `${items.join("").replace(/^ \+ /, "").replace(/^ − /, "−") || "nothing on the table"}</div></li>`;
    });
    return `<p>${why} A deal scores each treasure as its rank × 100, doubled in its owner's Ace's suit and by each 3 on it, halved by each 7, ` +
      `less 2000 for each Queen (4000 in the Ace's suit); a card under a King counts nothing.</p><ul class="breakdown">${rows.join("")}</ul>`;
  }
  const table = (view) => view.table || [];

  ArenaDescribers["opito-bay"] = {
    explain,
    unplayable,
    outcome,
    secret: ["spyglass"],
    event,
    decision,
    action(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, false); },
    brief(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, true); },
    legend() {
      const suits = Object.entries(SUITS).map(([letter, [, , name, point]]) =>
        `<span class="lg">${card("8" + letter)} <b>${name}</b> <span class="muted">${point}</span></span>`).join("");
      const ranks = [["2 4 6 8 10", "treasure: rank × 100, doubled in its owner's Ace suit"], ["3 / 7", "doubles / halves the treasure it lies on"],
                     ["5", "look at the library's top 5 and reorder them"], ["9", "swap a treasure of yours with another player's"],
                     ["J", "a player puts their hand under the library and draws 5"], ["Q", "−2000 for the player it lies before (−4000 in their Ace's suit)"],
                     ["K", "cancels a table card"], [card("X"), "Joker: any rank but A and Q (shown with the rank it was played as)"],
                     ["A", "each seat's Ace: its suit and compass point"]];
      return `<div class="legend-cards">${suits}</div><div class="legend-cards">${ranks.map(([r, what]) =>
        `<span class="lg"><b>${r}</b> <span class="muted">${what}</span></span>`).join("")}</div>` +
        `<div class="muted">#n: a table card's id (a King, 3 or 7 lies on the card above it) · ${card("4C", "dim")} faded: not scoring (a King lies on it), or the graveyard.</div>`;
    },
  };
})();
