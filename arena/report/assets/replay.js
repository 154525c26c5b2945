/* Re-playing a game of steps with the game's rules twin (ArenaRules[gameId], the engine's
   rules.js, run after arena/report/assets/pyrandom.js) into the states that its frames would
   give, and the check that the twin re-played the game the engine recorded (see
   arena/report/_steps.py). Loaded right after viewer.js, whose ArenaView it extends. */
"use strict";
window.ArenaRules = window.ArenaRules || {};

/* A replay that cannot be shown: its steps do not re-play under the rules twin, or the
   re-played game fails its check (the twin drifted from the engine). */
class ReplayError extends Error {}

/* ArenaView.same, as a plain function (it recurses on every value of every state a twin
   re-plays: no property lookups on the way). JSON values only: no undefined, no cycles. */
function sameJSON(a, b, strict) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (strict) return false;
    const ta = typeof a, tb = typeof b;
    return (ta === "boolean" || tb === "boolean") && (ta === "boolean" || ta === "number") &&
      (tb === "boolean" || tb === "number") && Number(a) === Number(b);
  }
  const list = Array.isArray(a);
  if (list !== Array.isArray(b)) return false;
  if (list) {
    const n = a.length;
    if (n !== b.length) return false;
    for (let i = 0; i < n; i++) if (a[i] !== b[i] && !sameJSON(a[i], b[i], strict)) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (a[key] !== b[key] && !sameJSON(a[key], b[key], strict)) return false;
  }
  return true;
}

/* `value` (a JSON value a twin made) as the viewer's own: `before` (a value of the viewer's)
   where the two are the same, strictly; else a copy that shares every part the same as in
   `before`. One pass that compares and copies, so the states of a game share what did not
   change, and none holds an object of the twin's (its next step may change them). */
function keepJSON(value, before) {
  if (value === before || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const old = Array.isArray(before) && before.length === value.length ? before : null;
    let out = old === null ? new Array(value.length) : null;
    for (let i = 0; i < value.length; i++) {
      const item = keepJSON(value[i], old === null ? undefined : old[i]);
      if (out === null && item !== old[i]) out = old.slice(0, i);
      if (out !== null) out[i] = item;
    }
    return out === null ? old : out;
  }
  const old = before !== null && typeof before === "object" && !Array.isArray(before) ? before : null;
  const keys = Object.keys(value);
  let same = old !== null && keys.length === Object.keys(old).length;
  const out = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const had = old !== null && Object.prototype.hasOwnProperty.call(old, key) ? old[key] : undefined;
    const item = keepJSON(value[key], had);
    if (item !== had) same = false;
    out[key] = item;
  }
  return same ? old : out;
}

Object.assign(ArenaView, {
  /* Python's == on JSON values (true == 1): how _frames._split tells a public key. With
     `strict`, types must match too (what may be shared with the previous state). */
  same(a, b, strict) { return sameJSON(a, b, strict); },

  /* What _steps.canonical writes: sorted keys, no spaces, non-ASCII escaped; then any ".0"
     after a digit before , ] } or the end taken off, as Python's text has it taken off. */
  canonical(value) {
    const write = (v) => {
      if (v === null || typeof v === "boolean") return String(v);
      if (typeof v === "number") {
        if (!Number.isInteger(v) && Math.abs(v) < 1e-4 && v !== 0) {
          return v.toExponential().replace(/e([+-])(\d)$/, "e$10$2");  // Python's repr: 1e-05
        }
        return String(v);
      }
      if (typeof v === "string") {
        return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
      }
      if (Array.isArray(v)) return "[" + v.map(write).join(",") + "]";
      return "{" + Object.keys(v).sort().map((key) => write(key) + ":" + write(v[key])).join(",") + "}";
    };
    return write(value).replace(/(?<=[0-9])\.0(?=[,\]}]|$)/g, "");
  },

  /* CRC-32 (zlib.crc32) of an ASCII string. */
  crc32(text) {
    let table = ArenaView.crcTable;
    if (!table) {
      table = ArenaView.crcTable = new Int32Array(256);
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        table[n] = c;
      }
    }
    let crc = -1;
    for (let i = 0; i < text.length; i++) crc = table[(crc ^ text.charCodeAt(i)) & 255] ^ (crc >>> 8);
    return (crc ^ -1) >>> 0;
  },

  /* A game of steps re-played with its rules twin: the states decodeFrames would build from
     its frames. Each step takes, per acting seat, legal[the next index of its decision's
     column] (legal[0] without one, when it is the only action), or the next action given
     as it is where the decision has no list of legal actions. Throws ReplayError when the
     twin rejects a step or the re-played game does not match the check made by the engine. */
  replay(game) {
    try {
      return ArenaView.replayWith(ArenaRules[game.game], game);
    } catch (error) {  // the twin may throw anything: say so in the viewer, as for a failed check
      if (error instanceof ReplayError) throw error;
      throw new ReplayError("the rules twin failed: " + (error && error.message || error));
    }
  },

  replayWith(rules, game) {
    if (!rules) throw new ReplayError("no rules twin (rules.js) for " + game.game + " in this page");
    const steps = game.steps;
    const cursor = {};
    const next = (name) => {
      const part = steps[name[0]][name.slice(2)];
      const at = cursor[name] || 0;
      if (!part || at >= part.length) throw new ReplayError("its codes run out at " + name);
      cursor[name] = at + 1;
      return part[at];
    };
    const orders = new Map(steps.o);
    const seats = Array.from({length: game.players}, (_, s) => s);
    const state = rules.newState(game.players, game.seed, game.options);
    const states = [];
    // Every part of a state is the viewer's own copy of the twin's values (its next step may
    // change its objects), or the previous state's where the value is the same, so unchanged
    // parts are shared. The game's static keys (the same in every state, e.g. Karibik's map)
    // are taken once per seat.
    const fixed = new Set(game.static || []);
    const keep = keepJSON;
    let last = {pub: {}, hid: {}, priv: seats.map(() => ({}))};
    let actions = [], legals = [], logged = 0, observations;
    for (let number = 0; ; number++) {
      observations = seats.map((seat) => state.observation(seat));
      const hidden = state.omniscient();
      const first = observations[0];
      const now = {pub: {}, hid: {}, priv: seats.map(() => ({}))};
      for (const key of Object.keys(first)) {
        if (number && fixed.has(key) && key in last.pub) {
          now.pub[key] = last.pub[key];
        } else if (observations.every((other, seat) => seat === 0 || (Object.prototype.hasOwnProperty.call(other, key) && sameJSON(other[key], first[key], false)))) {
          now.pub[key] = keep(first[key], last.pub[key]);  // public: under Python's == (_frames._split)
        }
      }
      observations.forEach((obs, seat) => {
        const before = last.priv[seat];
        for (const key of Object.keys(obs)) {
          if (key in now.pub) continue;
          now.priv[seat][key] = number && fixed.has(key) && key in before ? before[key] : keep(obs[key], before[key]);
        }
      });
      for (const key of Object.keys(hidden)) now.hid[key] = keep(hidden[key], last.hid[key]);
      const events = keepJSON(state.log.slice(logged));
      logged = state.log.length;
      last = now;
      states.push(Object.assign(now, {acting: state.acting.slice(), actions, legal: legals, events}));
      if (number === steps.n) break;
      const step = [];
      actions = [];
      legals = [];  // per action, the legal actions it was chosen among (null: not listed)
      for (const seat of orders.get(number) || state.acting) {
        const kind = state.decision(seat);
        const legal = state.legalActions(seat);
        let action;
        if (legal === null) action = next("x:" + kind);
        else if (legal.length === 1) action = legal[0];
        else action = legal[next("i:" + kind)];
        if (action === undefined) throw new ReplayError(`step ${number + 1}: no legal ${kind} action of seat ${seat} at its index`);
        step.push([seat, action]);
        actions.push([seat, kind, keepJSON(action)]);
        legals.push(legal === null ? null : keepJSON(legal));
      }
      try {
        state.apply(step);
      } catch (error) {
        throw new ReplayError(`step ${number + 1} does not re-play: ${error && error.message || error}`);
      }
    }
    const taken = Object.keys(steps.u).every((name) => cursor[name] === steps.u[name]) &&
      Object.keys(cursor).every((name) => name in steps.u);
    const check = ArenaView.crc32(ArenaView.canonical([observations, state.omniscient(), state.log]));
    if (!taken || check !== steps.h) {
      throw new ReplayError("the game re-played in the browser is not the one recorded (it fails its check: " +
        "this page's rules twin differs from the engine that wrote it); `arena view DB --game KEY --frames` draws it from the engine's own views");
    }
    return states;
  }
});
