/* The node side of tests/engines/test_rules_js.py: loads pyrandom.js and engine twins
   (engines/<game>/rules.js) as the page does, as plain scripts in one global scope, then
   answers one JSON request on stdin with one JSON answer on stdout.

   Request: {"scripts": [paths], "random": [{seed, calls: [[method, ...args]]}],
             "games": [{game, players, seed, options, steps: [[[seat, action], ...], ...],
                        digests: [sha1 of each state's record]}]}
   Answer:  {"random": [[result per call]], "games": [null | {state, record} | {state, error}]}
   A game answers null when every state's record has the digest Python computed, else the
   first state that differs with the twin's record of it (or the error the twin threw).
   A record is {obs: [observation per seat], hid, w: acting, d: [decision per acting seat],
   legal: [legal actions or null per acting seat], e: [[data, audience], ...] since the
   previous state}, hashed as canonical JSON (sorted keys, no spaces, JSON.stringify strings):
   Python writes the same with json.dumps(sort_keys=True, separators=(",", ":"),
   ensure_ascii=False). */
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const vm = require("vm");

function canon(value) {
  if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canon(value[k])).join(",") + "}";
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("not a JSON value: " + String(value));
  return text;
}

function record(state, players, eventsFrom) {
  const obs = [];
  for (let seat = 0; seat < players; seat++) obs.push(state.observation(seat));
  const acting = Array.from(state.acting);
  return {
    obs, hid: state.omniscient(), w: acting,
    d: acting.map((seat) => state.decision(seat)),
    legal: acting.map((seat) => state.legalActions(seat)),
    e: state.log.slice(eventsFrom),
  };
}

function checkGame(game) {
  const rules = globalThis.ArenaRules && globalThis.ArenaRules[game.game];
  if (!rules) return {state: 0, error: "no twin for " + game.game};
  let state, at = 0, seen = 0;
  try {
    state = rules.newState(game.players, game.seed, game.options);
    for (; at < game.digests.length; at++) {
      const mine = record(state, game.players, seen);
      seen = state.log.length;
      const digest = crypto.createHash("sha1").update(canon(mine), "utf8").digest("hex");
      if (digest !== game.digests[at]) return {state: at, record: mine};
      if (at < game.steps.length) state.apply(game.steps[at]);
    }
    if (state.isTerminal() !== game.terminal) return {state: at - 1, error: "isTerminal() is " + state.isTerminal()};
  } catch (error) {
    return {state: at, error: String(error && error.stack || error)};
  }
  return null;
}

function main() {
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  for (const path of request.scripts) vm.runInThisContext(fs.readFileSync(path, "utf8"), {filename: path});
  const random = (request.random || []).map(({seed, calls}) => {
    const rng = new globalThis.PyRandom(seed);
    return calls.map(([method, ...args]) => {
      const result = rng[method](...args);
      return Array.isArray(result) ? Array.from(result) : result;
    });
  });
  const games = (request.games || []).map(checkGame);
  process.stdout.write(JSON.stringify({random, games}));
}

main();
