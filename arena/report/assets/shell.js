/* The replay viewer on screen: controls (buttons, keys, a slider with a mark at each fault,
   autoplay with a speed), the step told in words (who decided what among which legal actions,
   the time it took, the fault and the fallback's moves), the board drawn by the game's
   renderer, the events as sentences, a move list beside it and the game's legend. The states
   come from ArenaView.decode (viewer.js); words from ArenaText (describe.js). */
"use strict";

/* In `root`, instead of a viewer: why game `game` cannot be shown (a ReplayError). */
function showReplayError(root, game, error, onClose) {
  const esc = ArenaText.esc;
  root.hidden = false;
  root.innerHTML = `<div class="vbar replay-error"><b>${esc(game.game)}</b> seed ${esc(game.seed)}` +
    `${game.meta && game.meta.key ? " · game " + esc(game.meta.key) : ""}: this replay cannot be shown: ${esc(error.message)}` +
    `${onClose ? ' <button class="close">✕</button>' : ""}</div>`;
  if (onClose) root.querySelector(".close").addEventListener("click", onClose);
}

/* Kinds of fault after which the bot may go on playing (the substitute policy): after any
   other, the fallback plays the seat to the end. */
const SUBSTITUTABLE = new Set(["timeout", "illegal"]);
const FAULT_NAMES = {timeout: "timed out", crash: "crashed", protocol: "broke the protocol", illegal: "made an illegal move",
                     oversize: "sent an oversized frame", memory: "ran out of memory", "arena-error": "the engine failed"};
const SPEEDS = [0.5, 1, 2, 4, 8, 16];

/* One game on screen. `seat` null: the omniscient view (public + hidden + every seat's
   private part, under `private`); a number: exactly that seat's observation. Options:
   onClose(), onChange(step, seat) (e.g. to put them in the URL), you (a seat: the page
   speaks to that seat's person, "you", as arena play's page does; ArenaText.toYou). */
class Viewer {
  constructor(root, game, options) {
    this.root = root;
    this.game = game;
    this.meta = game.meta || {};
    this.states = ArenaView.decode(game);
    this.step = 0;
    this.seat = null;
    this.timer = null;
    this.onClose = options && options.onClose;
    this.onChange = options && options.onChange;
    this.you = options && options.you !== undefined ? options.you : null;
    this.speak = this.you === null ? (text) => text : (text) => ArenaText.toYouEvents(text);
    this.render = ArenaRenderers[game.game];
    if (!this.render) throw new Error("no renderer for game " + game.game);
    this.index();
    this.build();
    this.go(0);
  }

  bot(seat) { return seat === this.you ? "you" : (this.meta.bots || [])[seat] || "seat " + seat; }
  get last() { return this.states.length - 1; }

  /* Where each state's actions start in the game's clock (meta.clock, one entry per action),
     and the faults by the state they show at: the one their failed decision led to. */
  index() {
    this.firstAction = [];
    let count = 0;
    for (const st of this.states) { this.firstAction.push(count); count += st.actions.length; }
    const clock = this.meta.clock;
    this.clock = clock && clock.ms && clock.ms.length === count ? clock : null;
    this.faultsAt = new Map();
    for (const fault of this.meta.faults || []) {
      const at = Math.max(0, Math.min(this.last, (fault.step || 0) + 1));
      if (!this.faultsAt.has(at)) this.faultsAt.set(at, []);
      this.faultsAt.get(at).push(fault);
    }
  }

  /* Who chose action `j` of state `i`: {fallback, presumed} (presumed: the game kept no
     record of who chose each move; then the default policy, forfeit, is assumed). */
  chooser(i, j) {
    const action = this.states[i].actions[j];
    if (this.clock) return {fallback: this.clock.ms[this.firstAction[i] + j] === null, presumed: false};
    const step = i - 1;
    for (const fault of this.meta.faults || []) {
      if (fault.seat !== action[0]) continue;
      if (fault.step === step) return {fallback: true, presumed: false};
      if (fault.step < step) return {fallback: true, presumed: true};
    }
    return {fallback: false, presumed: false};
  }

  ctx(index) {
    return ArenaText.context({game: this.game.game, seat: this.seat, players: this.game.players, bots: this.meta.bots || [],
                              you: this.you, options: this.game.options, step: index, view: this.view(index),
                              before: index > 0 ? this.view(index - 1) : null});
  }

  build() {
    const esc = ArenaText.esc;
    const meta = this.meta;
    const base = ArenaText.context({game: this.game.game, players: this.game.players, bots: meta.bots || [], you: this.you});
    const seats = Array.from({length: this.game.players}, (_, s) =>
      `<option value="${s}">seat ${s}: ${esc(this.bot(s))}</option>`).join("");
    const result = meta.ranks ? (meta.bots || []).map((b, s) => `${base.who(s)}: rank ${meta.ranks[s]}, score ${esc(meta.scores[s])}`).join("; ") : "";
    const marks = [...this.faultsAt.entries()].map(([at, faults]) =>
      `<span class="mark" data-step="${at}" style="left:calc(8px + (100% - 16px) * ${this.last ? at / this.last : 0})" ` +
      `title="step ${at}: ${esc(faults.map((f) => (f.bot || "the arena") + " " + (FAULT_NAMES[f.kind] || f.kind)).join("; "))}"></span>`).join("");
    const legend = this.speak(ArenaText.legend(base));
    this.root.innerHTML = `
      <div class="vbar"><b>${esc(this.game.game)}</b> seed ${esc(this.game.seed)} ${meta.key ? "· game " + esc(meta.key) : ""}
        <span class="result">${result}${meta.reason ? " · " + esc(meta.reason) : ""}</span>
        ${this.onClose ? '<button class="close" title="close (Esc)">✕</button>' : ""}</div>
      <div class="controls">
        <button data-go="first" title="first (Home)">|◀</button><button data-go="prev" title="back (←)">◀</button>
        <span class="track"><input type="range" min="0" max="${this.last}" value="0" class="slider" aria-label="step">${marks}</span>
        <button data-go="next" title="forward (→)">▶</button><button data-go="last" title="last (End)">▶|</button>
        <button class="play" title="autoplay (space)">▷ play</button>
        <label>speed <select class="speed">${SPEEDS.map((s) => `<option value="${s}"${s === 2 ? " selected" : ""}>${s} step${s === 1 ? "" : "s"}/s</option>`).join("")}</select></label>
        <span class="stepno"></span>
        <label>view <select class="seat"><option value="">omniscient</option>${seats}</select></label>
      </div>
      <div class="vmain">
        <div class="stage">
          <div class="played"></div>
          <div class="faultbox" hidden></div>
          <div class="next"></div>
          <div class="board"></div>
          ${legend ? `<details class="legend" open><summary>legend</summary>${legend}</details>` : ""}
          <details class="raw"><summary>this view as data</summary><pre></pre></details>
        </div>
        <aside class="moves"><div class="moves-head">moves <span class="muted">(click one to go there)</span></div><ol class="movelist"></ol></aside>
      </div>`;
    this.root.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => this.key(b.dataset.go)));
    this.root.querySelector(".slider").addEventListener("input", (e) => this.go(Number(e.target.value)));
    this.root.querySelector(".seat").addEventListener("change", (e) => this.setSeat(e.target.value === "" ? null : Number(e.target.value)));
    this.root.querySelector(".play").addEventListener("click", () => this.toggle());
    this.root.querySelector(".speed").addEventListener("change", () => { if (this.timer) { this.pause(); this.toggle(); } });
    this.root.querySelectorAll(".mark").forEach((m) => m.addEventListener("click", () => this.go(Number(m.dataset.step))));
    this.root.querySelector(".movelist").addEventListener("click", (e) => {
      const row = e.target.closest && e.target.closest("li[data-step]");
      if (row) this.go(Number(row.dataset.step));
    });
    ArenaText.wireRaw(this.root);
    const close = this.root.querySelector(".close");
    if (close) close.addEventListener("click", () => { this.pause(); this.onClose(); });
    this.buildMoves();
  }

  /* The move list: one row per step, the actions that led to it in a few words (in a seat's
     view, another seat's secret choice stays secret). */
  buildMoves() {
    const rows = ['<li data-step="0"><span class="n">0</span> start</li>'];
    for (let i = 1; i <= this.last; i++) {
      const st = this.states[i];
      const ctx = this.ctx(i);
      const faults = this.faultsAt.get(i);
      let fallback = false;
      const parts = st.actions.map((a, j) => {
        const chosen = this.chooser(i, j);
        fallback = fallback || chosen.fallback;
        const who = chosen.fallback ? `<span class="fallback">⚙ ${ctx.who(a[0])}</span>` : ctx.who(a[0]);
        if (this.seat !== null && a[0] !== this.seat && ArenaText.isSecret(a[1], ctx)) return `${who} <span class="muted">(secret)</span>`;
        return `${who} ${ArenaText.action(a[1], a[2], ctx, ctx.before, a[0], true)}`;
      });
      // seats that all did the same (a simultaneous bribe): their names, then the action once
      const briefs = st.actions.map((a) => ArenaText.action(a[1], a[2], ctx, ctx.before, a[0], true));
      const same = parts.length > 1 && !fallback && briefs.every((b) => b === briefs[0]) &&
        (this.seat === null || !ArenaText.isSecret(st.actions[0][1], ctx));
      const line = same ? `${ArenaText.list(st.actions.map((a) => ctx.who(a[0])))}: ${briefs[0]}` : parts.join("; ");
      rows.push(`<li data-step="${i}" class="${faults ? "fault" : ""}${fallback ? " byfallback" : ""}"><span class="n">${i}</span> ` +
        `${faults ? '<span class="warn" title="fault">⚠</span> ' : ""}${line}</li>`);
    }
    this.root.querySelector(".movelist").innerHTML = this.speak(rows.join(""));
  }

  key(what) {
    const to = {first: 0, prev: this.step - 1, next: this.step + 1, last: this.last,
                back10: this.step - 10, fwd10: this.step + 10}[what];
    if (to !== undefined) this.go(Math.max(0, Math.min(this.last, to)));
  }

  handleKey(event) {
    // A focused slider or menu handles its own arrow keys; stepping twice would skip a state.
    const tag = event.target && event.target.tagName;
    if (["INPUT", "SELECT"].includes(tag) && event.key !== "Escape") return;
    const map = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "back10", PageDown: "fwd10"};
    if (map[event.key]) { this.pause(); this.key(map[event.key]); event.preventDefault(); }
    else if (event.key === " " && tag !== "BUTTON") { this.toggle(); event.preventDefault(); }  // a focused button clicks itself
    else if (event.key === "Escape" && this.onClose) { this.pause(); this.onClose(); }
  }

  /* Autoplay: a step every 1/speed seconds until the last. */
  toggle() {
    if (this.timer) { this.pause(); return; }
    if (this.step >= this.last) this.go(0);
    const speed = Number(this.root.querySelector(".speed").value) || 2;
    this.timer = setInterval(() => {
      if (!this.root.isConnected || this.step >= this.last) { this.pause(); return; }
      this.go(this.step + 1);
    }, 1000 / speed);
    this.root.querySelector(".play").textContent = "❚❚ pause";
    this.root.dataset.playing = "1";
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const button = this.root.querySelector(".play");
    if (button) button.textContent = "▷ play";
    delete this.root.dataset.playing;
  }

  setSeat(seat) {
    this.seat = seat;
    this.root.querySelector(".seat").value = seat === null ? "" : String(seat);
    this.buildMoves();
    this.go(this.step);
  }

  view(index) {
    const st = this.states[index];
    if (this.seat === null) return Object.assign({}, st.pub, st.hid, {private: st.priv});
    return Object.assign({}, st.pub, st.priv[this.seat]);
  }

  /* The legal actions among which action `j` of state `i` was chosen, or null if unknown. */
  legal(i, j) {
    const st = this.states[i];
    if (st.legal && st.legal[j] !== undefined) return st.legal[j];
    const [seat, kind] = st.actions[j];
    const prev = this.states[i - 1];
    const before = Object.assign({}, prev.pub, prev.priv[seat]);
    const describer = ArenaDescribers[this.game.game] || {};
    if (describer.legal) {
      const found = describer.legal(kind, seat, before);
      if (found) return found;
    }
    const pending = before.pending;
    return pending && Array.isArray(pending.legal) && (pending.seat === undefined || pending.seat === seat) ? pending.legal : null;
  }

  /* The step that led to state `index`, in words: each action with its legal alternatives
     and its clock, then the events (those the seat saw, in a seat's view). */
  playedHtml(index, ctx) {
    const st = this.states[index];
    if (index === 0) return `<div class="steph">Start of the game${this.game.players ? `, ${this.game.players} players` : ""}.</div>` +
      ArenaText.eventList(this.visibleEvents(st), ctx);
    const limits = this.meta.limits;
    const lines = st.actions.map((a, j) => {
      const [seat, kind, action] = a;
      const chosen = this.chooser(index, j);
      const who = chosen.fallback ? `<span class="fallback" title="${chosen.presumed ? "presumed: this game did not record who chose each move" : "the bot had faulted: the arena chose a random legal move"}">⚙ the fallback for ${ctx.who(seat)}${chosen.presumed ? "?" : ""}</span>` : ctx.who(seat);
      if (this.seat !== null && seat !== this.seat && ArenaText.isSecret(kind, ctx)) {
        return `<div class="act">${who} <span class="muted">made a secret choice (${ArenaText.esc(kind)})</span></div>`;
      }
      let clock = "";
      if (this.clock) {
        const at = this.firstAction[index] + j;
        const ms = this.clock.ms[at];
        const left = this.clock.left ? this.clock.left[at] : null;
        clock = ms === null ? `<span class="clock">chosen by the arena: a random legal move</span>` :
          `<span class="clock" title="time the bot took${limits ? `; limit ${limits[0]} ms a move plus a reserve of ${limits[1]} ms a game` : ""}">` +
          `took ${ArenaText.ms(ms)}${limits ? ` of ${ArenaText.ms(limits[0])}` : ""}` +
          `${left !== null && left !== undefined ? ` · reserve left ${ArenaText.ms(left)}` : this.clock.left ? "" : limits && limits[1] ? " · reserve not recorded" : ""}</span>`;
      }
      return `<div class="act${chosen.fallback ? " byfallback" : ""}">${who} <span class="muted">(${ArenaText.decision(kind, seat, ctx, ctx.before)})</span>: ` +
        `<b class="did">${ArenaText.action(kind, action, ctx, ctx.before, seat, false)}</b> ${ArenaText.raw(action)} ${clock}` +
        `<div class="alts">${ArenaText.legalChips(kind, this.legal(index, j), action, ctx, ctx.before, seat)}</div></div>`;
    });
    return `<div class="steph">Step ${index}${st.actions.length ? "" : " (no decision)"}:</div>${lines.join("")}` +
      ArenaText.eventList(this.visibleEvents(st), ctx) +
      (this.clock ? "" : '<div class="muted">(the time each move took was not recorded for this game)</div>');
  }

  visibleEvents(st) {
    return st.events.filter((e) => this.seat === null || e[1] === null || e[1].includes(this.seat));
  }

  /* Who decides next, in words (or the result when the game is over). */
  nextHtml(index, ctx) {
    const st = this.states[index];
    if (!st.acting.length) {
      const meta = this.meta;
      const ranks = meta.ranks ? " " + (meta.bots || []).map((_, s) => `${ctx.who(s)} rank ${meta.ranks[s]} (${ArenaText.esc(meta.scores[s])})`).join(", ") : "";
      return `<b>Game over.</b>${ranks}`;
    }
    const after = this.states[index + 1];
    const kinds = new Map((after ? after.actions : []).map((a) => [a[0], a[1]]));
    const parts = st.acting.map((seat) => {
      const kind = kinds.get(seat);
      const j = after ? after.actions.findIndex((a) => a[0] === seat) : -1;
      const fallback = j >= 0 && this.chooser(index + 1, j).fallback;
      return `${ctx.who(seat)} ${kind ? ArenaText.decision(kind, seat, ctx, ctx.view) : "decides"}` +
        (fallback ? ' <span class="fallback">(the fallback plays for this bot)</span>' : "");
    });
    return `<b>Next${parts.length > 1 ? ", all at once" : ""}:</b> ${parts.join("; ")}.`;
  }

  faultHtml(index, ctx) {
    const esc = ArenaText.esc;
    const faults = this.faultsAt.get(index);
    if (!faults) return "";
    return faults.map((f) => {
      const who = f.seat === null || f.seat === undefined ? "the arena" : ctx.whoAt(f.seat);
      const after = f.seat === null || f.seat === undefined ? "The game stopped here; no bot is charged." :
        SUBSTITUTABLE.has(f.kind) ? "The fallback chose this move instead (a random legal move); under the forfeit policy it plays the seat to the end." :
        "The fallback plays this seat from here to the end (random legal moves).";
      const stderr = f.stderr ? `<div class="stderr-h">the bot's last stderr lines:</div><pre class="stderr">${esc(f.stderr)}</pre>` :
        f.seat === null || f.seat === undefined ? "" : '<div class="muted">no stderr recorded</div>';
      return `<div class="fault"><b>⚠ Fault (${esc(f.kind)}):</b> ${who} ${esc(FAULT_NAMES[f.kind] || f.kind)}` +
        `${f.between_games ? " between games (charged to this one)" : ` deciding step ${esc(f.step + 1)}`}. ${after}` +
        `<pre class="detail">${esc(f.detail || "")}</pre>${stderr}</div>`;
    }).join("");
  }

  go(index) {
    this.step = index;
    const ctx = this.ctx(index);
    const seat = this.seat;
    this.root.querySelector(".slider").value = String(index);
    this.root.querySelector(".stepno").textContent = `step ${index} / ${this.last}`;
    this.root.querySelector(".played").innerHTML = this.speak(this.playedHtml(index, ctx));
    const box = this.root.querySelector(".faultbox");
    const faults = this.faultHtml(index, ctx);
    box.hidden = !faults;
    box.innerHTML = this.speak(faults);
    this.root.querySelector(".next").innerHTML = this.speak(this.nextHtml(index, ctx));
    const renderCtx = Object.assign({}, ctx, {bots: this.meta.bots || []});
    this.root.querySelector(".board").innerHTML = this.speak(this.render(ctx.view, renderCtx));
    this.root.querySelector(".raw pre").textContent = JSON.stringify(ctx.view, null, 1);
    const list = this.root.querySelector(".movelist");
    const old = list.querySelector("li.cur");
    if (old) old.classList.remove("cur");
    const row = list.children[index];
    if (row) {
      row.classList.add("cur");
      const top = row.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + row.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    this.root.dataset.step = String(index);
    this.root.dataset.seat = seat === null ? "omniscient" : String(seat);
    if (this.onChange) this.onChange(index, seat);
  }
}
