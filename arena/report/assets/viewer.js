/* Replay viewer shell: builds a game's states, from its frames or by re-playing its steps
   with the game's rules twin (replay.js, loaded next), and steps through them, from the
   omniscient view or one seat's view. Game drawing is delegated to
   ArenaRenderers[gameId](view, ctx), defined by the engine's viewer.js. */
"use strict";
window.ArenaRenderers = window.ArenaRenderers || {};

function recordError(message) {
  const box = document.getElementById("js-errors");
  if (box) { box.hidden = false; box.textContent += message + "\n"; }
}
window.addEventListener("error", (e) => recordError("error: " + e.message + " at " + e.filename + ":" + e.lineno));
window.addEventListener("unhandledrejection", (e) => recordError("rejection: " + (e.reason && e.reason.stack || e.reason)));

const ArenaView = {
  esc(value) {
    return String(value).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  },
  json(value) { return JSON.stringify(value); },
  seatColours: ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c6d1f", "#444444"],

  /* Bytes of a chunk's text: 7 bits a character, U+0100 + ... for the unsafe values
     (the inverse of arena/report/_chunks.py to_text). */
  UNSAFE: [0x00, 0x0D, 0x3C],
  fromText(text) {
    const out = new Uint8Array(Math.ceil(text.length * 14 / 8));
    let acc = 0, bits = 0, n = 0;
    const put = (value) => {
      acc = (acc << 7) | value;
      bits += 7;
      if (bits >= 8) { bits -= 8; out[n++] = (acc >> bits) & 255; acc &= (1 << bits) - 1; }
    };
    const lone = ArenaView.UNSAFE.length << 7;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i) - 0x100;
      if (code < 0) put(code + 0x100);
      else if (code >= lone) put(ArenaView.UNSAFE[code - lone]);
      else { put(ArenaView.UNSAFE[code >> 7]); put(code & 127); }
    }
    return out.subarray(0, n);
  },

  /* A column's values (the inverse of _chunks.py transpose): {L: [column per index]},
     {D: [keys, [column per key]]} or the plain list. */
  untranspose(column) {
    if (Array.isArray(column)) return column;
    const parts = column.L ? column.L.map(ArenaView.untranspose) : column.D[1].map(ArenaView.untranspose);
    const keys = column.L ? null : column.D[0];
    return parts[0].map((_, i) => {
      if (keys === null) return parts.map((part) => part[i]);
      const value = {};
      keys.forEach((key, k) => { value[key] = parts[k][i]; });
      return value;
    });
  },

  /* A chunk (see _chunks.py) as {size, game(position)}: each frame takes, for each slot it
     names, the next value of that slot's column (w and a: one each frame). Only the game
     asked for is built: where its values start in each column is counted up front. */
  chunkReader(chunk) {
    const columns = {};
    for (const name of Object.keys(chunk.c)) columns[name] = ArenaView.untranspose(chunk.c[name]);
    const columnOf = chunk.k.map(([part, , key]) => part + ":" + (key === null ? "" : key));
    const starts = [];
    const used = {w: 0, a: 0};
    let row = 0;
    for (const header of chunk.g) {
      starts.push([row, Object.assign({}, used)]);
      for (let f = 0; f < header.n; f++) {
        for (const number of chunk.r[row++]) used[columnOf[number]] = (used[columnOf[number]] || 0) + 1;
      }
      used.w += header.n;
      used.a += header.n;
    }
    return {
      size: chunk.g.length,
      game(position) {
        const header = chunk.g[position];
        let [row, cursor] = starts[position];
        cursor = Object.assign({}, cursor);
        const next = (name) => { const i = cursor[name] || 0; cursor[name] = i + 1; return columns[name][i]; };
        const game = Object.assign({}, header, {frames: []});
        delete game.n;
        for (let f = 0; f < header.n; f++) {
          const frame = {p: {}, h: {}, s: Array.from({length: header.players}, () => ({})), w: next("w"), a: next("a"), e: []};
          for (const number of chunk.r[row++]) {
            const [part, seat, key] = chunk.k[number];
            const value = next(columnOf[number]);
            if (part === "e") frame.e.push(value);
            else if (part === "s") frame.s[seat][key] = value;
            else frame[part][key] = value;
          }
          game.frames.push(frame);
        }
        return game;
      },
    };
  },

  /* A chunk of games of steps (see _steps.py) as {size, game(position)}: a game is its
     header with `steps` = {n, h, o, i: {kind: indices}, x: {kind: actions}}, its own values
     of each column (where they start is counted from the headers' `u` up front). */
  stepsReader(chunk) {
    const columns = {};
    for (const kind of Object.keys(chunk.i)) columns["i:" + kind] = chunk.i[kind];
    for (const kind of Object.keys(chunk.x)) columns["x:" + kind] = ArenaView.untranspose(chunk.x[kind]);
    const starts = [];
    const used = {};
    for (const header of chunk.g) {
      starts.push(Object.assign({}, used));
      for (const [name, count] of Object.entries(header.u)) used[name] = (used[name] || 0) + count;
    }
    return {
      size: chunk.g.length,
      game(position) {
        const header = chunk.g[position];
        const steps = {n: header.n, h: header.h, o: header.o || [], u: header.u, i: {}, x: {}};
        for (const [name, count] of Object.entries(header.u)) {
          const at = starts[position][name] || 0;
          steps[name[0]][name.slice(2)] = columns[name].slice(at, at + count);
        }
        const game = Object.assign({}, header, {steps});
        for (const key of ["n", "h", "u", "o"]) delete game[key];
        return game;
      },
    };
  },

  /* The reader of chunk element `id` (chunkReader or stepsReader, by the element's type),
     decoded once (the last four kept). */
  chunks: new Map(),
  loadChunk(id) {
    if (!ArenaView.chunks.has(id)) {
      if (ArenaView.chunks.size >= 4) ArenaView.chunks.delete(ArenaView.chunks.keys().next().value);
      ArenaView.chunks.set(id, (async () => {
        if (document.readyState === "loading") {  // the chunks follow the scripts in the page
          await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, {once: true}));
        }
        const element = document.getElementById(id);
        const bytes = ArenaView.fromText(element.textContent);
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        const chunk = JSON.parse(await new Response(stream).text());
        return element.type === "application/x-steps" ? ArenaView.stepsReader(chunk) : ArenaView.chunkReader(chunk);
      })());
    }
    return ArenaView.chunks.get(id);
  },

  /* Game `position` of chunk element `id`. */
  async load(id, position) {
    return (await ArenaView.loadChunk(id)).game(position);
  },

  /* Inverse of _frames.delta: [v] sets, [] deletes, an object patches a dict or a list
     ("#": [length] first for a list whose length changed; or "~": splices). Returns a new value. */
  patch(old, change) {
    let out;
    if (Array.isArray(old) && "~" in change) {  // splices, in ascending order: applied last first
      out = old.slice();
      for (let i = change["~"].length - 1; i >= 0; i--) {
        const [start, removed, ...inserted] = change["~"][i];
        out.splice(start, removed, ...inserted);
      }
      return out;
    }
    if (Array.isArray(old)) {
      out = old.slice();
      if ("#" in change) out.length = change["#"][0];
    } else {
      out = Object.assign({}, old);
    }
    for (const key of Object.keys(change)) {
      if (key === "#" && Array.isArray(out)) continue;
      const op = change[key];
      const index = Array.isArray(out) ? Number(key) : key;
      if (Array.isArray(op)) {
        if (op.length) out[index] = op[0]; else delete out[index];
      } else {
        out[index] = ArenaView.patch(out[index], op);
      }
    }
    return out;
  },

  /* The game's states, {pub, hid, priv[seat], acting, actions, events} each (unchanged parts
     shared): from its frames, or re-played from its steps (replay). */
  decode(game) {
    return game.frames ? ArenaView.decodeFrames(game) : ArenaView.replay(game);
  },

  /* Cumulative views per frame. */
  decodeFrames(game) {
    const states = [];
    let pub = {}, hid = {}, priv = game.frames[0].s.map(() => ({}));
    for (const frame of game.frames) {
      pub = ArenaView.patch(pub, frame.p);
      hid = ArenaView.patch(hid, frame.h);
      priv = priv.map((mine, seat) => ArenaView.patch(mine, frame.s[seat]));
      states.push({pub, hid, priv, acting: frame.w, actions: frame.a, events: frame.e});
    }
    return states;
  },

};

/* In `root`, instead of a viewer: why game `game` cannot be shown (a ReplayError). */
function showReplayError(root, game, error, onClose) {
  const esc = ArenaView.esc;
  root.hidden = false;
  root.innerHTML = `<div class="vbar replay-error"><b>${esc(game.game)}</b> seed ${esc(game.seed)}` +
    `${game.meta && game.meta.key ? " · game " + esc(game.meta.key) : ""}: this replay cannot be shown: ${esc(error.message)}` +
    `${onClose ? ' <button class="close">✕</button>' : ""}</div>`;
  if (onClose) root.querySelector(".close").addEventListener("click", onClose);
}

/* One game on screen. `seat` null: the omniscient view (public + hidden + every seat's
   private part, under `private`); a number: exactly that seat's observation. */
class Viewer {
  constructor(root, game, options) {
    this.root = root;
    this.game = game;
    this.states = ArenaView.decode(game);
    this.step = 0;
    this.seat = null;
    this.onClose = options && options.onClose;
    this.render = ArenaRenderers[game.game];
    if (!this.render) throw new Error("no renderer for game " + game.game);
    this.build();
    this.go(0);
  }

  bot(seat) { return (this.game.meta.bots || [])[seat] || "seat " + seat; }

  build() {
    const esc = ArenaView.esc;
    const meta = this.game.meta;
    const seats = Array.from({length: this.game.players}, (_, s) =>
      `<option value="${s}">seat ${s}: ${esc(this.bot(s))}</option>`).join("");
    const result = meta.ranks ? meta.bots.map((b, s) => `${esc(b)}: rank ${meta.ranks[s]}, score ${esc(meta.scores[s])}`).join("; ") : "";
    this.root.innerHTML = `
      <div class="vbar"><b>${esc(this.game.game)}</b> seed ${esc(this.game.seed)} ${meta.key ? "· game " + esc(meta.key) : ""}
        <span class="result">${result}${meta.reason ? " · " + esc(meta.reason) : ""}</span>
        ${this.onClose ? '<button class="close" title="close (Esc)">✕</button>' : ""}</div>
      <div class="controls">
        <button data-go="first" title="first (Home)">|◀</button><button data-go="prev" title="back (←)">◀</button>
        <input type="range" min="0" max="${this.states.length - 1}" value="0" class="slider">
        <button data-go="next" title="forward (→)">▶</button><button data-go="last" title="last (End)">▶|</button>
        <span class="stepno"></span>
        <label>view <select class="seat"><option value="">omniscient</option>${seats}</select></label>
      </div>
      <div class="status"></div><div class="board"></div>
      <div class="log"></div>
      <details class="raw"><summary>this view as data</summary><pre></pre></details>`;
    this.root.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => this.key(b.dataset.go)));
    this.root.querySelector(".slider").addEventListener("input", (e) => this.go(Number(e.target.value)));
    this.root.querySelector(".seat").addEventListener("change", (e) => this.setSeat(e.target.value === "" ? null : Number(e.target.value)));
    const close = this.root.querySelector(".close");
    if (close) close.addEventListener("click", () => this.onClose());
  }

  key(what) {
    const last = this.states.length - 1;
    const to = {first: 0, prev: this.step - 1, next: this.step + 1, last: last,
                back10: this.step - 10, fwd10: this.step + 10}[what];
    if (to !== undefined) this.go(Math.max(0, Math.min(last, to)));
  }

  handleKey(event) {
    // A focused slider or menu handles its own arrow keys; stepping twice would skip a state.
    if (event.target && ["INPUT", "SELECT"].includes(event.target.tagName)) return;
    const map = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "back10", PageDown: "fwd10"};
    if (map[event.key]) { this.key(map[event.key]); event.preventDefault(); }
    else if (event.key === "Escape" && this.onClose) this.onClose();
  }

  setSeat(seat) {
    this.seat = seat;
    this.root.querySelector(".seat").value = seat === null ? "" : String(seat);
    this.go(this.step);
  }

  view(index) {
    const st = this.states[index];
    if (this.seat === null) return Object.assign({}, st.pub, st.hid, {private: st.priv});
    return Object.assign({}, st.pub, st.priv[this.seat]);
  }

  go(index) {
    const esc = ArenaView.esc;
    this.step = index;
    const st = this.states[index];
    const view = this.view(index);
    const seat = this.seat;
    this.root.querySelector(".slider").value = String(index);
    this.root.querySelector(".stepno").textContent = `step ${index} / ${this.states.length - 1}`;
    const acted = st.actions.filter((a) => seat === null || a[0] === seat)
      .map((a) => `<span class="act" style="color:${ArenaView.seatColours[a[0] % 8]}">${esc(this.bot(a[0]))} (${esc(a[1])}): <code>${esc(JSON.stringify(a[2]))}</code></span>`).join(" ");
    const acting = st.acting.length ? "to act: " + st.acting.map((s) => esc(this.bot(s))).join(", ") : "game over";
    this.root.querySelector(".status").innerHTML = `${acted ? "played: " + acted + " · " : ""}${acting}`;
    const ctx = {seat, players: this.game.players, bots: this.game.meta.bots || [], options: this.game.options,
                 esc, colour: (s) => ArenaView.seatColours[s % 8], step: index};
    this.root.querySelector(".board").innerHTML = this.render(view, ctx);
    const events = st.events.filter((e) => seat === null || e[1] === null || e[1].includes(seat));
    this.root.querySelector(".log").innerHTML = events.length ? "<ul>" + events.map((e) =>
      `<li>${e[1] ? '<span class="secret">[seen by seat ' + esc(e[1].join(", ")) + ' only]</span> ' : ""}<code>${esc(JSON.stringify(e[0]))}</code></li>`).join("") + "</ul>" : "";
    this.root.querySelector(".raw pre").textContent = JSON.stringify(view, null, 1);
    this.root.dataset.step = String(index);
    this.root.dataset.seat = seat === null ? "omniscient" : String(seat);
  }
}
