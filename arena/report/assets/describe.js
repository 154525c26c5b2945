/* A game in words: the drawing context and the helpers that turn a game's events, decisions
   and actions into short sentences, each with its raw JSON one click away. Reusable by any
   page that has one seat's observation or one replay step (the report's viewer, `arena view`,
   a live play page): nothing here needs a whole replay.

   A game describes itself in its viewer.js (beside its engine) with
   ArenaDescribers[gameId] = {
     colours: [css colour per seat] (optional: the game's own seat colours, readable as text),
     secret: [decision kinds whose action the other seats do not see (e.g. a secret bid)],
     event(data, ctx) -> HTML sentence of one event (data: the event's map),
     group(events) -> [[event data, ...], ...] (optional: events told in one sentence),
     decision(kind, seat, ctx, view) -> HTML: what `seat` decides ("decides whether to ..."),
     action(kind, action, ctx, before, seat) -> HTML: what the action does ("collects the row"),
     brief(kind, action, ctx, before, seat) -> HTML: the action in a few words (move list, chips),
     legal(kind, seat, before) -> the legal actions when the replay has none (optional),
     legend(ctx) -> HTML legend of the game's symbols and colours,
     explain(kind, action, ctx, view, seat) -> HTML: what choosing the action leads to, beyond
       the action's own words (a character's ability, a card's effect; the play page shows it
       beside each choice),
     unplayable(kind, view, legal, ctx) -> [[HTML of a thing shown but not among the legal
       actions (a card in hand), why it cannot be chosen], ...],
     outcome(view, events, ctx) -> HTML: why the game ended and each seat's score broken down,
       from a seat's last view and every event that seat saw (the play page's end),
   }.
   Every member is optional: a missing one falls back to the raw JSON. */
"use strict";
window.ArenaDescribers = window.ArenaDescribers || {};

const ArenaText = {
  esc(value) {
    return String(value).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  },
  /* Seat colours when a game has none of its own (Okabe-Ito: told apart by colour-blind readers). */
  seatColours: ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#b07c00", "#56b4e9", "#8c6d1f", "#444444"],

  /* The context every drawing and describing function takes: `seat` (null: the omniscient
     view), `players`, `bots` (names per seat), `options`, `game` (its id), plus `view` (the
     state shown) and `before` (the state before the step shown; null at the first) where a
     page has them, and `you` (a seat the page speaks to: named "you"). Adds esc, colour(seat),
     name(seat) (text), who(seat) (coloured HTML; "you" in class "who you"; two seats of one
     name are told apart by their seat: "anna (seat 1)"), whoAt(seat, note) (who with its seat
     said once, "anna (seat 1)", "anna (seat 1, you)", for a name that carries its seat already
     too). */
  context(info) {
    const describer = ArenaDescribers[info.game] || {};
    const bots = info.bots || [];
    const players = info.players;
    const palette = describer.colours || ArenaText.seatColours;
    const plain = (s) => (bots[s] === undefined || bots[s] === null || bots[s] === "" ? "seat " + s : String(bots[s]));
    const twice = new Set();
    const seen = new Set();
    for (let s = 0; s < players; s++) {
      if (seen.has(plain(s))) twice.add(plain(s));
      seen.add(plain(s));
    }
    const ctx = Object.assign({seat: null, options: {}, view: null, before: null, step: null}, info, {bots});
    ctx.esc = ArenaText.esc;
    ctx.colour = (s) => palette[s % palette.length];
    const you = (s) => info.you !== undefined && info.you !== null && s === info.you;
    ctx.name = (s) => (s === null || s === undefined ? "nobody" : you(s) ? "you" : twice.has(plain(s)) ? `${plain(s)} (seat ${s})` : plain(s));
    const bold = (s, text) => `<b class="who${you(s) ? " you" : ""}" style="color:${ctx.colour(s)}">${ArenaText.esc(text)}</b>`;
    ctx.who = (s) => (s === null || s === undefined ? "nobody" : bold(s, ctx.name(s)));
    const bare = (s) => {  // the name less a seat it already carries (arena play names two bots of one name so)
      const name = ctx.name(s), tag = ` (seat ${s})`;
      return name.endsWith(tag) ? name.slice(0, -tag.length) : name;
    };
    ctx.whoAt = (s, note) => (s === null || s === undefined ? "nobody" : `${bold(s, bare(s))} (seat ${s}${note ? ", " + note : ""})`);
    return ctx;
  },

  /* "a", "a and b", "a, b and c" (HTML items as they are). */
  list(items, empty) {
    if (!items.length) return empty === undefined ? "nothing" : empty;
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  },

  /* A value's JSON behind a toggle: the {} button shows and hides it (see wireRaw). */
  raw(value) {
    return `<button type="button" class="rawbtn" title="show the raw JSON">{}</button>` +
      `<code class="rawjson" hidden>${ArenaText.esc(JSON.stringify(value))}</code>`;
  },

  /* One click handler under `root` for every raw-JSON toggle in it. */
  wireRaw(root) {
    root.addEventListener("click", (event) => {
      const button = event.target.closest && event.target.closest(".rawbtn");
      if (!button || !root.contains(button)) return;
      const code = button.nextElementSibling;
      code.hidden = !code.hidden;
      button.classList.toggle("open", !code.hidden);
    });
  },

  /* An event of a replay state is [data, audience]; of a bot's request, its data alone. */
  eventData(event) {
    return Array.isArray(event) && event.length === 2 && event[0] !== null && typeof event[0] === "object" && !Array.isArray(event[0]) ? event[0] : event;
  },
  eventAudience(event) {
    return ArenaText.eventData(event) === event ? null : event[1];
  },

  /* One event as a sentence (the game's, else its JSON). */
  eventSentence(data, ctx) {
    const describer = ArenaDescribers[ctx.game] || {};
    let text = null;
    try {
      text = describer.event ? describer.event(data, ctx) : null;
    } catch (error) {
      text = null;  // a describer that cannot read an event shows it raw: the game still reads
    }
    return text || `<code>${ArenaText.esc(JSON.stringify(data))}</code>`;
  },

  /* Events as a list of sentences, each with its JSON behind {} (a toggle that needs wireRaw;
     `raw: false` leaves it out, for a page that shows no JSON); secret events are marked with
     who saw them. */
  eventList(events, ctx, {raw = true} = {}) {
    if (!events.length) return "";
    const describer = ArenaDescribers[ctx.game] || {};
    const data = events.map(ArenaText.eventData);
    const audience = events.map(ArenaText.eventAudience);
    let groups;
    try {
      groups = describer.group ? describer.group(data) : data.map((d) => [d]);
    } catch (error) {
      groups = data.map((d) => [d]);
    }
    let at = 0;
    const items = groups.map((group) => {
      const seen = audience[at];
      at += group.length;
      const secret = seen ? `<span class="secret">seen by ${ArenaText.list(seen.map((s) => ctx.who(s)))} only:</span> ` : "";
      const sentence = group.length > 1 && describer.groupSentence ? describer.groupSentence(group, ctx) : group.map((d) => ArenaText.eventSentence(d, ctx)).join("; ");
      return `<li class="ev">${secret}<span class="sentence">${sentence}</span>${raw ? " " + ArenaText.raw(group.length === 1 ? group[0] : group) : ""}</li>`;
    });
    return `<ul class="events">${items.join("")}</ul>`;
  },

  /* What `seat` decides, in words ("decides whether to draw another card or collect"). */
  decision(kind, seat, ctx, view) {
    const describer = ArenaDescribers[ctx.game] || {};
    const text = describer.decision ? describer.decision(kind, seat, ctx, view) : null;
    return text || `decides <b>${ArenaText.esc(kind)}</b>`;
  },

  /* What an action does, in words; `brief`: in a few words. */
  action(kind, action, ctx, before, seat, brief) {
    const describer = ArenaDescribers[ctx.game] || {};
    const fn = brief ? describer.brief || describer.action : describer.action;
    let text = null;
    try {
      text = fn ? fn(kind, action, ctx, before, seat) : null;
    } catch (error) {
      text = null;
    }
    return text || `<code>${ArenaText.esc(JSON.stringify(action))}</code>`;
  },

  /* Whether the other seats see `kind`'s action (a secret bid: no). */
  isSecret(kind, ctx) {
    const describer = ArenaDescribers[ctx.game] || {};
    return (describer.secret || []).includes(kind);
  },

  /* The legal actions as chips, the chosen one highlighted (at most `limit`, the chosen
     always among them); null legal: the decision has no list (any value in range). */
  legalChips(kind, legal, chosen, ctx, before, seat, limit) {
    if (!legal) return "";
    const max = limit || 24;
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    let shown = legal.slice(0, max);
    const at = legal.findIndex((a) => same(a, chosen));
    if (at >= max) shown = shown.slice(0, max - 1).concat([legal[at]]);
    const chips = shown.map((a) => {
      const picked = same(a, chosen);
      return `<span class="chip${picked ? " chosen" : ""}" title="${ArenaText.esc(JSON.stringify(a))}">${picked ? "✔ " : ""}` +
        `${ArenaText.action(kind, a, ctx, before, seat, true)}</span>`;
    });
    const more = legal.length > shown.length ? ` <span class="muted">… and ${legal.length - shown.length} more</span>` : "";
    return `<span class="legal"><span class="muted">${legal.length === 1 ? "its only choice:" : `chose among ${legal.length}:`}</span> ${chips.join("")}${more}</span>`;
  },

  /* The game's optional words of the play page (see the top): "" or [] where it has none. */
  explain(kind, action, ctx, view, seat) {
    const describer = ArenaDescribers[ctx.game] || {};
    try {
      return (describer.explain && describer.explain(kind, action, ctx, view, seat)) || "";
    } catch (error) {
      return "";
    }
  },
  unplayable(kind, view, legal, ctx) {
    const describer = ArenaDescribers[ctx.game] || {};
    try {
      return (describer.unplayable && describer.unplayable(kind, view, legal, ctx)) || [];
    } catch (error) {
      return [];
    }
  },
  outcome(view, events, ctx) {
    const describer = ArenaDescribers[ctx.game] || {};
    return describer.outcome ? describer.outcome(view, events, ctx) || "" : "";
  },

  /* The game's legend (HTML), or "". */
  legend(ctx) {
    const describer = ArenaDescribers[ctx.game] || {};
    return describer.legend ? describer.legend(ctx) : "";
  },

  /* A page that speaks to a person (arena play): the describers' sentences name seats in
     the third person ("anna draws A5"); the person's seat is named "you" (context's `you`),
     and here the verb after it agrees ("you draw A5") and "you's" is "your"; `aboutYou`: the
     whole text is about the person (their decision), so "their" is "your" too. */
  /* A verb of the third person singular in the second ("draws": "draw"; other words as they are). */
  youVerb(word) {
    const irregular = {is: "are", has: "have", was: "were"};
    const notVerbs = new Set(["as", "this", "plus", "thus", "always", "its", "less", "across", "yes"]);
    return irregular[word] || (notVerbs.has(word) || word.length < 3 ? word :
      /[^aeiou]ies$/.test(word) ? word.slice(0, -3) + "y" : /(ss|sh|ch|x|z|o)es$/.test(word) ? word.slice(0, -2) :
        /[^su]s$/.test(word) ? word.slice(0, -1) : word);
  },
  toYou(htmlText, aboutYou) {
    const base = ArenaText.youVerb;
    let text = String(htmlText).replace(/(<b class="who you"[^>]*>)you(<\/b>)('s\b|(\s+(?:<span class="muted">)?\(?)([a-z]+)\b)?/g, (all, open, close, tail, gap, word) =>
      tail === "'s" ? `${open}your${close}` : word ? `${open}you${close}${gap}${base(word)}` : all);
    // the replay viewer's "you (decides whether...): draws another card", the action in
    // <b class="did"> before its {} toggle: there "their" is "your" too ("give away your 4♣")
    text = text.replace(/(<b class="who you"[^>]*>you<\/b> <span class="muted">\([\s\S]*?\)<\/span>:\s*)(?:(<b class="did">)([\s\S]*?)(<\/b> <button)|([a-z]+)\b)/g,
      (all, lead, did, action, close, word) => lead + (did ?
        did + action.replace(/^[a-z]+\b/, base).replace(/\btheir\b/g, "your").replace(/\bthemselves\b/g, "yourself") + close : base(word)));
    if (aboutYou) text = text.replace(/\btheir\b/g, "your").replace(/\bthemselves\b/g, "yourself");
    return text;
  },
  /* An event list (eventList's HTML) for the person: in each sentence whose subject is the
     person, "their" is "your" and the verbs of its later clauses agree too ("you draw X and
     bust: lose ..."). */
  toYouEvents(htmlText) {
    return ArenaText.toYou(htmlText).replace(/(<span class="sentence">)(<b class="who you"[^>]*>(you|your)<\/b>[\s\S]*?)(<\/span>(?: <button|<\/li>))/g,
      (all, open, sentence, subject, close) => {
        let text = sentence.replace(/\btheir\b/g, "your");
        if (subject === "you") text = text.replace(/(\b(?:then|and)\s+|[:;]\s+)([a-z]+s)\b/g, (m, lead, word) => lead + ArenaText.youVerb(word));
        return open + text + close;
      });
  },

  /* Milliseconds for people: "< 1 ms" (0: the clock keeps no less), "3.4 ms", "37 ms", "1.25 s". */
  ms(value) {
    if (value === null || value === undefined) return "?";
    if (value === 0) return "< 1 ms";
    if (value >= 1000) return (value / 1000).toFixed(value >= 10000 ? 1 : 2) + " s";
    return (value < 10 ? Number(value).toFixed(1) : Math.round(value)) + " ms";
  },
};
