/* Replay viewer data: builds a game's states, from its frames or by re-playing its steps
   with the game's rules twin (replay.js, loaded next). The viewer on screen is shell.js; game
   drawing is delegated to ArenaRenderers[gameId](view, ctx) and the game's words to
   ArenaDescribers[gameId] (describe.js), both defined by the engine's viewer.js. */
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
