/* Dead Man's Draw in the replay viewer (arena report / arena view) and any page built on it:
   the drawing (ArenaRenderers: play area, banks by suit, draw and discard piles, characters,
   the pending decision) and the words (ArenaDescribers: events, decisions and actions as
   sentences, the legend; see arena/report/assets/describe.js). `view` is one seat's
   observation (protocol/games/dead-mans-draw.md) or, with ctx.seat null, the omniscient view
   (adds draw_pile, bottom first, and every seat's private part under `private`). */
"use strict";
(() => {
  /* letter: [name, symbol, colour, tint, ability] */
  const SUITS = {
    A: ["Anchor", "⚓", "#1f4e9c", "#e3ecfa", "the cards placed before it are protected"],
    H: ["Hook", "↩", "#6d4c41", "#efe6e2", "brings the top card of one of your stacks into play"],
    C: ["Cannon", "●", "#333333", "#e6e6e6", "discards the top card of an opponent's stack"],
    K: ["Key", "⚷", "#8a6d00", "#fbf3d0", "with a Chest in the collected row: bonus cards"],
    T: ["Chest", "▣", "#c25e00", "#fde9d6", "with a Key in the collected row: bonus cards"],
    M: ["Map", "⌘", "#2e7d32", "#e3f2e4", "3 discard cards revealed, one enters play"],
    O: ["Oracle", "◉", "#6a1b9a", "#f0e3f7", "shows the top card of the draw pile"],
    S: ["Sword", "⚔", "#b71c1c", "#fbe3e3", "takes an opponent's top card of a suit you lack"],
    X: ["Kraken", "✺", "#00707a", "#d9f1f3", "2 more cards must be placed before collecting"],
    N: ["Mermaid", "♆", "#c2185b", "#fbe1ec", "no ability (high values)"],
  };
  const CHARACTER_NAMES = {davy_jones_locker: "Davy Jones' Locker", captain_hook: "Captain Hook", golden_scales: "Golden Scales",
                           master_gunner: "Master Gunner", safe_harbour: "Safe Harbour", beast_master: "Beast Master",
                           living_shield: "Living Shield"};
  /* What each character does (docs/rules/dead-mans-draw.md, "Characters"): "you" is its owner.
     sir Lovesword replaces Casanova's ability in the Mermaid-effect variant. */
  const ABILITIES = {
    golden_scales: "your score gets +5 if you have a Mermaid stack",
    casanova: "in your turn a Mermaid that would enter the play area goes straight into your bank (no bust)",
    plunderer: "your Key and Chest bonus comes from the top cards of one opponent's bank, which you choose, not from the discard pile",
    greedy: "your Key and Chest bonus is twice as many cards",
    navigator: "your Map lets you choose from the whole discard pile, not from 3 random cards",
    master_gunner: "your Cannon discards an opponent's whole stack, not just its top card",
    vulture: "the card your Cannon hits goes into your bank instead of the discard pile",
    seer: "your Oracle shows you (only you) the top 3 cards of the draw pile",
    swordswoman: "your Sword may take from any stack, even of a suit you already have",
    miser: "a Hook you place, and the cards it brings into play, are protected (banked even on a bust)",
    captain_hook: "your Hook brings 2 cards from your bank into play, not 1",
    safe_harbour: "your Anchor and the next 2 cards placed after it are protected too",
    fisherman: "in your turn a Kraken that would enter the play area goes straight into your bank, without effect",
    beast_master: "opponents must place 4 cards after a Kraken, not 2",
    misfire: "an opponent's Cannon must hit a stack of that opponent's own instead",
    living_shield: "an opponent's Sword must take a Kraken (or does nothing)",
    davy_jones_locker: "at the start you choose an opponent: every card they lose to a bust goes into your bank",
    siren: "when an opponent's Mermaid moves a card, you take that card into your bank",
  };
  const LOVESWORD = "when you place a Mermaid you may take a card placed before it into your bank instead";
  const ability = (id, options) => (id === "casanova" && options && options.mermaid_effect ? LOVESWORD : ABILITIES[id]);
  const esc = ArenaText.esc;
  const suitName = (letter) => (SUITS[letter] ? SUITS[letter][0] : letter);
  const character = (id) => esc(CHARACTER_NAMES[id] || String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
  const card = (name, cls) => {
    const suit = SUITS[name[0]];
    if (!suit) return `<span class="card ${cls || ""}">${esc(name)}</span>`;
    return `<span class="card ${cls || ""}" style="color:${suit[2]};border-color:${suit[2]};background:${suit[3]}" ` +
      `title="${suit[0]} ${esc(name.slice(1))} (${esc(name)})">${suit[1]}${esc(name.slice(1))}</span>`;
  };
  const cards = (list, cls) => (list || []).map((c) => card(c, cls)).join("") || '<span class="muted">none</span>';
  const top = (view, seat, letter) => {
    const stack = view && view.banks && view.banks[seat] && view.banks[seat][letter];
    return stack && stack.length ? stack[0] : null;
  };

  /* A seat's score as its parts: each stack's top card value (and Golden Scales' +5). */
  const scoreSum = (view, s) => {
    const bank = (view.banks && view.banks[s]) || {};
    const parts = Object.keys(bank).filter((suit) => bank[suit].length).map((suit) => Number(bank[suit][0].slice(1)));
    let total = parts.reduce((a, b) => a + b, 0);
    const strs = parts.map(String);
    if (view.characters && view.characters[s] === "golden_scales" && bank.N && bank.N.length) { strs.push("5 (Golden Scales)"); total += 5; }
    return {parts: strs, total, cards: Object.keys(bank).reduce((n, suit) => n + bank[suit].length, 0)};
  };

  ArenaRenderers["dead-mans-draw"] = function (view, ctx) {
    const omni = ctx.seat === null;
    const out = [];
    const p = view.pending;
    out.push(`<div class="kv">phase <b>${esc(view.phase)}</b> · turn: ${ctx.who(view.turn)}` +
      (view.kraken ? ` · Kraken: ${view.kraken} more to place` : "") + (view.harbour ? ` · Safe Harbour: ${view.harbour}` : "") + "</div>");
    if (p && p.cards) out.push(`<div class="pile"><b>the Map shows</b> ${cards(p.cards)}</div>`);
    const drawn = omni ? (view.draw_pile || []).slice().reverse() : view.draw_known;
    out.push(`<div class="pile"><b>draw pile</b> ${view.draw_size} cards` +
      (drawn && drawn.length ? ` · ${omni ? "from the top" : "known top"}: ${cards(drawn.slice(0, omni ? 12 : drawn.length), omni ? "dim" : "")}${omni && drawn.length > 12 ? " …" : ""}` : "") + "</div>");
    out.push(`<div class="pile"><b>play area</b> ${view.row.length ? view.row.map((c, i) => card(c, view.protected[i] ? "prot" : "")).join("") : '<span class="muted">empty</span>'}</div>`);
    out.push(`<div class="pile"><b>discard</b> ${view.discard.length} cards: ${cards(view.discard, "dim")}</div>`);
    for (let s = 0; s < ctx.players; s++) {
      const bank = view.banks[s] || {};
      const stacks = Object.keys(bank).map((suit) => `<div>${esc(suitName(suit))}: ${cards(bank[suit])}</div>`).join("") || '<span class="muted">empty bank</span>';
      let who = view.characters[s] ? character(view.characters[s]) : "";
      const dealt = omni ? view.private[s].dealt : (s === ctx.seat ? view.dealt : null);
      if (!who && dealt) who = "choosing: " + dealt.map(character).join(" / ");
      const locker = view.locker[s] !== null && view.locker[s] !== undefined ? ` · Locker on ${ctx.who(view.locker[s])}` : "";
      const acting = (p && p.seat === s) || view.turn === s;
      const sum = scoreSum(view, s);
      out.push(`<div class="seatbox ${acting ? "acting" : ""}" style="border-color:${ctx.colour(s)}">` +
        `${ctx.whoAt(s, s === ctx.seat && ctx.name(s) !== "you" ? "you" : "")} · score <b>${view.scores[s]}</b>` +
        ` <span class="muted sum" title="a score is the sum of each stack's top card">${sum.parts.length ? "= " + sum.parts.join(" + ") + " " : ""}` +
          `<span class="why">(the sum of each stack's top card)</span></span>` +
        `<div class="kv">${who || "no character"}${locker}</div>${stacks}</div>`);
    }
    return out.join("");
  };

  const DECISIONS = {
    character: "chooses which dealt character to keep (secretly)",
    locker: "chooses whose busts feed the Davy Jones' Locker",
    draw: "decides whether to draw another card or collect the play area",
    hook: "chooses the stack whose top card the Hook brings into play",
    cannon: "chooses the stack the Cannon fires at",
    sword: "chooses the card the Sword takes",
    map: "chooses one of the cards the Map revealed",
    oracle: "decides whether to place the revealed card or collect",
    mermaid: "chooses the card the Mermaid moves",
    plunder: "chooses the stack to plunder a bonus card from",
  };

  /* One action; `brief`: in a few words (the legal actions' chips, the move list). */
  function action(kind, a, ctx, before, seat, brief) {
    const named = (s, letter) => {
      const hit = top(before, s, letter);
      return hit ? card(hit) : esc(suitName(letter));
    };
    switch (kind) {
      case "character": return brief ? character(a) : `keeps ${character(a)}`;
      case "locker": return brief ? `→ ${ctx.who(a)}` : `targets ${ctx.who(a)}`;
      case "draw": return a === "draw" ? (brief ? "draw" : "draws another card") : (brief ? "collect" : "collects the play area");
      case "oracle": return a === "place" ? (brief ? "place" : "places the revealed card") : (brief ? "collect" : "collects the play area");
      case "hook": return brief ? named(seat, a) : `hooks ${named(seat, a)} from their ${esc(suitName(a))} stack`;
      // a move list says the brief after the chooser's name: "anna → bob's ⚓4", not "anna bob ⚓4"
      case "cannon": return brief ? `→ ${ctx.who(a[0])}'s ${named(a[0], a[1])}` : `fires at ${ctx.who(a[0])}'s ${esc(suitName(a[1]))} stack (${named(a[0], a[1])})`;
      case "sword": return brief ? `→ ${ctx.who(a[0])}'s ${named(a[0], a[1])}` : `takes ${named(a[0], a[1])} from ${ctx.who(a[0])}'s bank`;
      case "plunder": return brief ? `→ ${ctx.who(a[0])}'s ${named(a[0], a[1])}` : `plunders ${named(a[0], a[1])} from ${ctx.who(a[0])}'s bank`;
      case "map": return brief ? card(a) : `takes ${card(a)}`;
      case "mermaid": {
        const moved = before && before.row ? before.row[a[1]] : null;
        const what = moved ? card(moved) : `card ${a[1] + 1} of the row`;
        return (a[0] === "bank" ? (brief ? "bank " : "banks ") : (brief ? "move " : "moves ")) + what;
      }
      default: return null;
    }
  }

  /* The draw (or Hook, Sword) of a card and what it did on entering, in one sentence. */
  function entered(first, then, ctx) {
    const lead = event(first, ctx);
    if (then.type === "place") return `${lead} into the play area`;
    if (then.type === "banked") return `${lead}; ${character(then.by)} banks it at once`;
    return `${lead} and busts: ${bustTail(then, ctx)}`;
  }

  function bustTail(e, ctx) {
    return `loses ${cards(e.lost)}` + (e.locker !== undefined && e.locker !== null ? ` to ${ctx.who(e.locker)}'s Locker` : "") +
      (e.kept && e.kept.length ? `; keeps ${cards(e.kept)} (protected)` : "");
  }

  function event(e, ctx) {
    const who = ctx.who(e.seat);
    switch (e.type) {
      case "start": return `${who} starts`;
      case "dealt": return `dealt ${ArenaText.list(e.characters.map(character))}`;
      case "characters": return "characters revealed: " + ArenaText.list(e.characters.map((c, s) => `${ctx.who(s)} ${c ? character(c) : "none"}`));
      case "locker": return `${who}'s Davy Jones' Locker targets ${ctx.who(e.target)}`;
      case "turn": return `${who}'s turn`;
      case "draw": return `${who} draws ${card(e.card)}`;
      case "place": return `${card(e.card)} enters the play area` + (e.from === "discard" ? " from the discard pile" : e.from === "bank" ? " from a bank" : "");
      case "banked": return `${who}'s ${character(e.by)} banks ${card(e.card)} at once`;
      case "hook": return `${who}'s Hook takes ${card(e.card)} from their bank`;
      case "sword": return `${who}'s Sword takes ${card(e.card)} from ${ctx.who(e.target)}'s bank`;
      case "cannon": return `${who}'s Cannon hits ${ctx.who(e.target)}'s ${cards(e.cards)}` + (e.to === "bank" ? ` (into ${who}'s bank)` : " (discarded)");
      case "map": return `${who}'s Map reveals ${cards(e.cards)} from the discard pile`;
      case "oracle": return `${who}'s Oracle reveals the top card: ${card(e.card)}`;
      case "seer": return `${who} (Seer) looks at the top ${e.count} card${e.count === 1 ? "" : "s"}`;
      case "look": return `${who} sees ${cards(e.cards)} (top first)`;
      case "move": return `${who}'s Mermaid moves ${card(e.card)} to the end of the row`;
      case "siren": return `${who}'s Siren takes ${card(e.card)}`;
      case "lovesword": return `${who} (sir Lovesword) banks ${card(e.card)}`;
      case "no_effect": return `${who}'s ${esc(String(e.suit).replace(/^./, (c) => c.toUpperCase()))} has no effect`;
      case "bust": return `${who} busts on ${card(e.card)}: ${bustTail(e, ctx)}`;
      case "collect": return `${who} collects ${cards(e.cards)}`;
      case "bonus": return `${who} gets a Key and Chest bonus: ${cards(e.cards)}` + (typeof e.from === "number" ? ` plundered from ${ctx.who(e.from)}` : " from the discard pile");
      case "end": return "game over: " + ArenaText.list(e.scores.map((score, s) => `${ctx.who(s)} ${score}`));
      default: return null;
    }
  }

  /* What a choice leads to (the play page shows it beside the choice). */
  function explain(kind, a, ctx, view, seat) {
    const row = (view && view.row) || [];
    const busts = (name) => name && row.some((c) => (ctx.options && ctx.options.strange_waters ? c.slice(1) === name.slice(1) : c[0] === name[0]));
    const enters = (name) => (busts(name) ? `${card(name)} busts: its ${ctx.options && ctx.options.strange_waters ? "value" : "suit"} is in the play area already` :
      name ? `${card(name)} enters the play area and its ability acts: ${esc(SUITS[name[0]] ? SUITS[name[0]][4] : "")}` : "");
    switch (kind) {
      case "character": return ability(a, ctx.options) ? esc(ability(a, ctx.options)) : "";
      case "locker": return `every card ${ctx.who(a)} loses to a bust goes into your bank`;
      case "draw": {
        if (a !== "draw") return (row.length === 1 ? "the card of the play area goes" : `the ${row.length} cards of the play area go`) + " into your bank" +
          (row.some((c) => c[0] === "K") && row.some((c) => c[0] === "T") ? ", with a Key and Chest bonus" : "") + "; your turn ends";
        const suits = [...new Set(row.map((c) => c[0]))].map((l) => esc(suitName(l)));
        return `a card of a suit already in the play area (${ArenaText.list(suits, "none")}) busts: the unprotected cards go to the discard pile and your turn ends`;
      }
      case "oracle": {
        const shown = view && view.draw_known && view.draw_known[0];
        return a === "place" ? (shown ? enters(shown) : "the revealed card enters the play area") :
          "the revealed card stays on the draw pile; the play area's cards go into your bank";
      }
      case "hook": return enters(top(view, seat, a));
      case "sword": return enters(top(view, a[0], a[1]));
      case "map": return enters(a);
      case "cannon": return `it goes to the discard pile${view && view.characters && view.characters[seat] === "vulture" ? " (your Vulture: into your bank)" : ""}`;
      case "plunder": return "it goes into your bank";
      case "mermaid": return a[0] === "bank" ? "it goes into your bank; its ability does not act" : "it moves to the end of the row and its ability acts again";
      default: return "";
    }
  }

  /* The end: why the game ended, and each seat's score as its stacks' top cards. */
  function outcome(view, events, ctx) {
    const end = events.find((e) => e.type === "end");
    const why = end ? "The draw pile ran out: the game ended with that turn." : "The game ended before the draw pile ran out.";
    const sums = Array.from({length: ctx.players}, (_, s) => scoreSum(view, s));
    const best = Math.max(...view.scores);
    const tied = view.scores.filter((x) => x === best).length > 1;
    const rows = sums.map((sum, s) => {
      const bank = view.banks[s] || {};
      const stacks = Object.keys(bank).filter((suit) => bank[suit].length).map((suit) =>
        `<span class="stack">${esc(suitName(suit))}: ${card(bank[suit][0])}${bank[suit].length > 1 ? `<span class="muted"> over ${cards(bank[suit].slice(1), "dim")}</span>` : ""}</span>`);
      const golden = sum.parts.length > stacks.length ? " + 5 (Golden Scales: a Mermaid stack)" : "";
      return `<li>${ctx.who(s)}: <b>${view.scores[s]}</b> = ${sum.parts.length ? sum.parts.slice(0, stacks.length).join(" + ") + golden : "0 (an empty bank)"}` +
        (tied && view.scores[s] === best ? ` · ${sum.cards} cards in the bank` : "") +
        `<div class="stacks">${stacks.join(" ") || '<span class="muted">no stacks</span>'}</div></li>`;
    });
    return `<p>${why} A score is the sum of each stack's top card.` +
      (tied ? " Equal highest scores: more cards in the bank ranks higher." : "") + `</p><ul class="breakdown">${rows.join("")}</ul>`;
  }

  ArenaDescribers["dead-mans-draw"] = {
    explain,
    outcome,
    secret: ["character"],
    event,
    group(events) {
      const groups = [];
      for (let i = 0; i < events.length; i++) {
        const e = events[i], next = events[i + 1];
        if (next && ["draw", "hook", "sword"].includes(e.type) && next.card === e.card && ["place", "bust", "banked"].includes(next.type)) {
          groups.push([e, next]);
          i++;
        } else {
          groups.push([e]);
        }
      }
      return groups;
    },
    groupSentence(group, ctx) { return entered(group[0], group[1], ctx); },
    decision(kind) { return DECISIONS[kind] || null; },
    action(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, false); },
    brief(kind, a, ctx, before, seat) { return action(kind, a, ctx, before, seat, true); },
    /* the engine's list: a character decision's is the dealt ids, sorted, once each */
    legal(kind, seat, before) { return kind === "character" && before && before.dealt ? [...new Set(before.dealt)].sort() : null; },
    legend() {
      const rows = Object.entries(SUITS).map(([letter, [name, , , , ability]]) =>
        `<span class="lg">${card(letter + "5")} <b>${name}</b> <span class="muted">${ability}</span></span>`).join("");
      return `<div class="legend-cards">${rows}</div><div>A score is the sum of each stack's top card (Golden Scales: +5 with a Mermaid stack).</div><div class="muted">A card shows its suit's symbol and its value (hover: its code, e.g. A5). ` +
        `${card("A3", "prot")} green outline: protected (banked even on a bust) · ${card("X4", "dim")} faded: discard pile, or the draw pile in the omniscient view.</div>`;
    },
  };
})();
