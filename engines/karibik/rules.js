/* Karibik's rules in JavaScript: the twin of engines/karibik/ that the report's replay viewer
   uses to re-play a game from its seed and actions (issue 17). It must produce exactly what
   the Python engine produces: the same acting seats, decisions, legal actions (in order),
   observations, omniscient view and events, state by state. tests/engines/test_rules_js.py
   replays seeded random games of every player count and option through both and compares
   them; change the two together.

   One section per Python module, in the order a reader of engines/karibik/ meets them; each
   function names the Python function it mirrors. Python's None is null, tuples are arrays.
   Only what a replay needs is here: no clone, fork, resample, determinize, from_setup,
   outcome or random_action (the rules draw from the rng at setup only, as in Python).
   A plain browser script (no modules, no DOM), run after arena/report/assets/pyrandom.js:

     const state = ArenaRules["karibik"].newState(players, "12345", {board: "caribbean", max_rounds: 30});
     state.apply([[0, [5, 4, 3, 2, 1, 0]], [1, [-1, 0, 1, 2, 3, 4]]]);
     state.observation(0); state.omniscient(); state.log; state.isTerminal();
*/
"use strict";
var ArenaRules = globalThis.ArenaRules = globalThis.ArenaRules || {};

(function () {
  // -- engines/_core.py: the generic part of State, and same_value ---------------------------

  /* IllegalAction: "player N: reason"; the state is unchanged. */
  class IllegalAction extends Error {
    constructor(player, reason) {
      super("player " + player + ": " + reason);
      this.name = "IllegalAction";
      this.player = player;
      this.reason = reason;
    }
  }

  /* same_value: equal and of the same JSON types throughout (true is not 1, "7" is not 7).
     JavaScript cannot tell 7.0 from 7, so that one of Python's distinctions is lost. */
  function sameValue(a, b) {
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
      return true;
    }
    if (Array.isArray(b)) return false;
    if (a !== null && typeof a === "object") {
      if (b === null || typeof b !== "object") return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue(a[key], b[key]));
    }
    return a === b;
  }

  /* is_listed */
  function isListed(action, legal) {
    return legal.some((candidate) => sameValue(candidate, action));
  }

  /* State: acting, history, log and the generic checks of apply. A game subclass implements
     decision, legalActions, _check, _apply, observation. */
  class State {
    /* State.__init__ */
    constructor(numPlayers, rng, options) {
      this.numPlayers = numPlayers;
      this.rng = rng;
      this.options = Object.assign({}, options);
      this.acting = [];
      this.history = [];  // one step a call of apply: [[seat, action], ...] in seat order
      this.log = [];      // [data, audience]: audience null (everyone) or a sorted array of seats
    }

    /* is_terminal */
    isTerminal() {
      return this.acting.length === 0;
    }

    /* apply: `step` is [[seat, action], ...], one pair per acting seat (Python's step dict
       items). Throws IllegalAction for the first bad action (seats in order), leaving the
       state unchanged. */
    apply(step) {
      if (!Array.isArray(step) || !step.every((pair) => Array.isArray(pair) && pair.length === 2)) {
        throw new Error("a step is an array of [seat, action] pairs, got " + JSON.stringify(step));
      }
      const actions = new Map();
      for (const [seat, action] of step) {
        if (actions.has(seat)) throw new IllegalAction(seat, "two actions in one step");
        actions.set(seat, action);
      }
      const seats = Array.from(actions.keys()).sort((a, b) => a - b);
      const missing = this.acting.filter((seat) => !actions.has(seat)).sort((a, b) => a - b);
      const extra = seats.filter((seat) => !this.acting.includes(seat));
      if (missing.length || extra.length) {
        const player = (missing.length ? missing : extra)[0];
        throw new IllegalAction(player, "expected actions from seats " + JSON.stringify(this.acting) +
          "; missing " + JSON.stringify(missing) + ", unexpected " + JSON.stringify(extra));
      }
      if (this.isTerminal()) throw new IllegalAction(0, "the game is over");  // Python: KeyError in _apply
      for (const seat of seats) this._check(seat, actions.get(seat));
      const sorted = new Map(seats.map((seat) => [seat, actions.get(seat)]));
      this.history.push(seats.map((seat) => [seat, actions.get(seat)]));
      this._apply(sorted);
    }

    /* emit */
    emit(data, audience = null) {
      this.log.push([data, audience === null ? null : Array.from(audience).sort((a, b) => a - b)]);
    }

    /* State._check: the listed actions, compared strictly. */
    _check(player, action) {
      const legal = this.legalActions(player);
      if (!isListed(action, legal)) {
        throw new IllegalAction(player, JSON.stringify(action) + " is not a legal " + this.decision(player) +
          " action; legal: " + JSON.stringify(legal.length <= 20 ? legal : legal.slice(0, 20).concat(["..."])));
      }
    }
  }

  // -- engines/karibik/_rules.py: constants ----------------------------------------------------

  const SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"];
  const CARDS = [-1, 0, 1, 2, 3, 4, 5];
  const THIEF = -1;
  const LOOT_GAIN = 2000;
  const TARGETS = {2: 62000, 3: 41000, 4: 31000};
  const MAX_TRANSFERS = 12;
  const RESERVE = 0, ON_PORT = 1, ON_SHIP = 2, DELIVERED = 3;
  const CHEST_STATES = ["reserve", "port", "ship", "delivered"];
  const BRIBE = "bribe", TIEBREAK = "tiebreak", MOVE = "move", OVER = "over";
  const NUM_SHIPS = SHIPS.length;

  // -- engines/karibik/_board.py: Board ---------------------------------------------------------

  const PORT = "port", HIDEOUT = "hideout", START = "start";
  const COLOURS = ["red", "blue", "green", "yellow"];

  /* Deep-freezes the wire board: like Board.as_dict, the same object goes into every
     observation and callers must not modify it. */
  function deepFreeze(value) {
    if (value !== null && typeof value === "object") {
      Object.values(value).forEach(deepFreeze);
      Object.freeze(value);
    }
    return value;
  }

  /* Board: the per-area tables the rules use (a Python Board also keeps distances and
     validates itself; the map here is the same data, checked by the equivalence test). */
  class Board {
    /* Board.from_data + Board.__init__: rows [name, kind, extra, region, x, y], name pairs. */
    constructor(name, rows, edges) {
      this.name = name;
      this.areas = rows.map(([areaName, kind, extra, region, x, y], id) => ({
        id, name: areaName, kind, region, x, y,
        colour: kind === HIDEOUT ? extra : null,
        chest: kind === PORT ? extra : null,
      }));
      const ids = new Map(this.areas.map((area) => [area.name, area.id]));
      const neighbours = this.areas.map(() => []);
      for (const [a, b] of edges) {
        neighbours[ids.get(a)].push(ids.get(b));
        neighbours[ids.get(b)].push(ids.get(a));
      }
      this.neighbours = neighbours.map((near) => near.sort((a, b) => a - b));
      this.ports = this.areas.filter((a) => a.kind === PORT).map((a) => a.id);
      this.starts = this.areas.filter((a) => a.kind === START).map((a) => a.id);
      this.hideouts = this.areas.filter((a) => a.kind === HIDEOUT).map((a) => a.id);
      this.owner = this.areas.map((a) => (a.kind === HIDEOUT ? COLOURS.indexOf(a.colour) : null));
      this.chestValue = this.areas.map((a) => a.chest || 0);
      this.wire = deepFreeze({
        name,
        areas: this.areas.map((a) => [a.name, a.kind, a.kind === HIDEOUT ? a.colour : a.chest, a.x, a.y]),
        adjacent: this.neighbours.map((near) => near.slice()),
      });
    }

    /* as_dict */
    asDict() {
      return this.wire;
    }
  }

  // -- engines/karibik/_caribbean.py: the shipped map (AREAS and EDGES, copied) --------------

  const AREAS = [
    ["Trujillo", "port", 8000, "west", 22.0, 38.5],
    ["Havana", "port", 8000, "north", 42.0, 7.0],
    ["Port Royal", "port", 8000, "south", 49.6, 26.4],
    ["Bridgetown", "port", 8000, "east", 91.5, 40.5],
    ["Veracruz", "port", 5000, "west", 2.8, 20.1],
    ["Campeche", "port", 5000, "west", 18.4, 20.4],
    ["Belize", "port", 5000, "west", 25.2, 26.7],
    ["Bluefields", "port", 5000, "south", 37.5, 44.1],
    ["Trinidad", "port", 5000, "north", 42.7, 15.4],
    ["Nombre de Dios", "port", 5000, "south", 49.0, 47.5],
    ["Cap-Francais", "port", 5000, "north", 64.6, 18.3],
    ["Maracaibo", "port", 5000, "south", 66.0, 54.5],
    ["Willemstad", "port", 5000, "south", 70.6, 43.5],
    ["Santo Domingo", "port", 5000, "south", 71.9, 25.2],
    ["San Juan", "port", 5000, "east", 79.4, 20.3],
    ["Charlotte Amalie", "port", 5000, "east", 88.1, 12.9],
    ["Isla del Carmen", "hideout", "yellow", "west", 13.1, 27.6],
    ["Isla Mujeres", "hideout", "green", "west", 22.0, 2.5],
    ["Utila", "hideout", "red", "west", 27.4, 35.6],
    ["Corn Islands", "hideout", "blue", "west", 28.0, 53.5],
    ["Swan Islands", "hideout", "green", "south", 35.2, 27.6],
    ["Dry Tortugas", "hideout", "red", "north", 34.0, 12.5],
    ["Pedro Cays", "hideout", "blue", "south", 53.7, 32.9],
    ["Ile a Vache", "hideout", "yellow", "south", 60.0, 21.5],
    ["Caicos", "hideout", "blue", "north", 66.0, 9.0],
    ["Margarita", "hideout", "green", "east", 79.8, 49.5],
    ["Saint Croix", "hideout", "red", "east", 83.8, 27.5],
    ["Marie-Galante", "hideout", "yellow", "east", 97.5, 29.5],
    ["Sigsbee Deep", "start", null, "west", 13.0, 17.0],
    ["Mosquito Bank", "start", null, "south", 36.5, 36.6],
    ["Gulf of Guacanayabo", "start", null, "north", 52.0, 16.9],
    ["Gulf of Uraba", "start", null, "south", 57.5, 51.5],
    ["Caicos Passage", "start", null, "north", 75.0, 12.0],
    ["Venezuelan Basin", "start", null, "south", 73.5, 36.0],
    ["Bay of Campeche", "sea", null, "west", 5.0, 32.0],
    ["Gulf of Honduras", "sea", null, "west", 22.4, 33.0],
    ["Campeche Bank", "sea", null, "west", 23.9, 11.0],
    ["Gulf of Mosquitos", "sea", null, "south", 37.0, 48.5],
    ["Serranilla Bank", "sea", null, "south", 45.8, 34.3],
    ["Cayman Trench", "sea", null, "north", 45.9, 22.8],
    ["Tongue of the Ocean", "sea", null, "north", 51.0, 11.5],
    ["Exuma Sound", "sea", null, "north", 60.0, 1.5],
    ["Jamaica Channel", "sea", null, "south", 59.0, 29.5],
    ["Curacao Basin", "sea", null, "east", 79.4, 41.9],
    ["Sombrero Passage", "sea", null, "east", 88.9, 23.2],
    ["Gulf of Paria", "sea", null, "east", 92.0, 53.0],
  ];
  const EDGES = [
    ["Trujillo", "Isla del Carmen"], ["Trujillo", "Utila"], ["Trujillo", "Corn Islands"],
    ["Trujillo", "Bay of Campeche"], ["Trujillo", "Gulf of Honduras"], ["Trujillo", "Gulf of Mosquitos"],
    ["Havana", "Isla Mujeres"], ["Havana", "Dry Tortugas"], ["Havana", "Caicos"],
    ["Havana", "Campeche Bank"], ["Havana", "Tongue of the Ocean"], ["Havana", "Exuma Sound"],
    ["Port Royal", "Swan Islands"], ["Port Royal", "Pedro Cays"], ["Port Royal", "Ile a Vache"],
    ["Port Royal", "Serranilla Bank"], ["Port Royal", "Cayman Trench"], ["Port Royal", "Jamaica Channel"],
    ["Bridgetown", "Margarita"], ["Bridgetown", "Saint Croix"], ["Bridgetown", "Marie-Galante"],
    ["Bridgetown", "Curacao Basin"], ["Bridgetown", "Sombrero Passage"], ["Bridgetown", "Gulf of Paria"],
    ["Veracruz", "Isla Mujeres"], ["Veracruz", "Sigsbee Deep"], ["Veracruz", "Bay of Campeche"],
    ["Campeche", "Isla del Carmen"], ["Campeche", "Sigsbee Deep"], ["Campeche", "Campeche Bank"],
    ["Belize", "Swan Islands"], ["Belize", "Mosquito Bank"], ["Belize", "Gulf of Honduras"],
    ["Bluefields", "Utila"], ["Bluefields", "Mosquito Bank"], ["Bluefields", "Serranilla Bank"],
    ["Trinidad", "Dry Tortugas"], ["Trinidad", "Gulf of Guacanayabo"], ["Trinidad", "Cayman Trench"],
    ["Nombre de Dios", "Margarita"], ["Nombre de Dios", "Gulf of Uraba"], ["Nombre de Dios", "Gulf of Mosquitos"],
    ["Cap-Francais", "Ile a Vache"], ["Cap-Francais", "Gulf of Guacanayabo"], ["Cap-Francais", "Tongue of the Ocean"],
    ["Maracaibo", "Corn Islands"], ["Maracaibo", "Gulf of Uraba"], ["Maracaibo", "Gulf of Paria"],
    ["Willemstad", "Pedro Cays"], ["Willemstad", "Venezuelan Basin"], ["Willemstad", "Curacao Basin"],
    ["Santo Domingo", "Saint Croix"], ["Santo Domingo", "Venezuelan Basin"], ["Santo Domingo", "Jamaica Channel"],
    ["San Juan", "Caicos"], ["San Juan", "Caicos Passage"], ["San Juan", "Sombrero Passage"],
    ["Charlotte Amalie", "Marie-Galante"], ["Charlotte Amalie", "Caicos Passage"], ["Charlotte Amalie", "Exuma Sound"],
    ["Isla del Carmen", "Bay of Campeche"], ["Isla del Carmen", "Gulf of Honduras"], ["Isla Mujeres", "Campeche Bank"],
    ["Isla Mujeres", "Exuma Sound"], ["Utila", "Gulf of Honduras"], ["Utila", "Gulf of Mosquitos"],
    ["Corn Islands", "Bay of Campeche"], ["Corn Islands", "Gulf of Mosquitos"], ["Swan Islands", "Serranilla Bank"],
    ["Swan Islands", "Cayman Trench"], ["Dry Tortugas", "Campeche Bank"], ["Dry Tortugas", "Tongue of the Ocean"],
    ["Pedro Cays", "Serranilla Bank"], ["Pedro Cays", "Jamaica Channel"], ["Ile a Vache", "Cayman Trench"],
    ["Ile a Vache", "Jamaica Channel"], ["Caicos", "Tongue of the Ocean"], ["Caicos", "Exuma Sound"],
    ["Margarita", "Curacao Basin"], ["Margarita", "Gulf of Paria"], ["Saint Croix", "Curacao Basin"],
    ["Saint Croix", "Sombrero Passage"], ["Marie-Galante", "Sombrero Passage"], ["Marie-Galante", "Gulf of Paria"],
  ];
  const CARIBBEAN = new Board("caribbean", AREAS, EDGES);

  // -- engines/karibik/_state.py: KaribikState ---------------------------------------------

  const BOARDS = {caribbean: CARIBBEAN};
  const TIEBREAK_ACTIONS = ["reveal", "keep"];

  class KaribikState extends State {
    /* KaribikState.__init__: two shuffles (the ports: the first six get a chest, the rest are
       the reserve in draw order; the start areas: ship i starts on the i-th), then round 1. */
    constructor(numPlayers, rng, options) {
      super(numPlayers, rng, options);
      this._initFixed(BOARDS[this.options.board]);
      const ports = this.board.ports.slice();
      this.rng.shuffle(ports);
      for (const port of ports.slice(0, NUM_SHIPS)) this.chestStatus[port] = ON_PORT;
      this.reserve = ports.slice(NUM_SHIPS);
      const starts = this.board.starts.slice();
      this.rng.shuffle(starts);
      this.shipArea = starts;
      this._beginRound();
    }

    /* _init_fixed */
    _initFixed(board) {
      const n = this.numPlayers;
      this.board = board;
      this.target = TARGETS[n];
      this.maxRounds = this.options.max_rounds;
      this.hideoutOwner = board.owner.map((o) => (o !== null && o < n ? o : null));
      this.chestStatus = board.chestValue.map((v) => (v ? RESERVE : null));
      this.reserve = [];
      this.shipArea = board.starts.slice();
      this.shipChest = new Array(NUM_SHIPS).fill(null);
      this.scores = new Array(n).fill(0);
      this.round = 1;
      this.phase = BRIBE;
      this.bids = new Array(n).fill(null);
      this.tiebreaker = new Array(n).fill(null);
      this.tbRevealed = new Array(n).fill(false);
      this.ship = -1;  // the ship being resolved; cards of ships 0..ship are revealed
      this.tied = [];
      this.controller = null;
      this.stepsLeft = 0;
      this.transfersLeft = 0;
    }

    // decisions

    /* decision */
    decision(player) {
      return this.phase;
    }

    /* legal_actions: null for a bribe (not enumerated). */
    legalActions(player) {
      if (this.phase === BRIBE) return null;
      if (this.phase === TIEBREAK) return TIEBREAK_ACTIONS.slice();
      if (this.phase === OVER) throw new Error("the game is over");  // Python: IndexError
      return this._moveActions();
    }

    /* _check */
    _check(player, action) {
      if (this.phase === BRIBE) {
        const reason = bribeProblem(action);
        if (reason) throw new IllegalAction(player, reason);
        return;
      }
      super._check(player, action);
    }

    /* _apply: `actions` is a Map seat -> action in seat order. */
    _apply(actions) {
      if (this.phase === BRIBE) this._setBids(actions);
      else if (this.phase === TIEBREAK) this._tiebreak(actions);
      else this._applyMove(actions.get(this.controller));
    }

    // a round

    /* _begin_round */
    _beginRound() {
      const n = this.numPlayers;
      this.phase = BRIBE;
      this.bids = new Array(n).fill(null);
      this.tiebreaker = new Array(n).fill(null);
      this.tbRevealed = new Array(n).fill(false);
      this.ship = -1;
      this.tied = [];
      this.acting = Array.from({length: n}, (_, seat) => seat);
    }

    /* _set_bids */
    _setBids(actions, firstShip = 0) {
      for (const [seat, cards] of actions) {
        this.bids[seat] = cards.slice();
        this.tiebreaker[seat] = CARDS.find((c) => !cards.includes(c));
      }
      this.emit({type: "bribes", round: this.round});
      this.ship = firstShip - 1;
      this._advance();
    }

    /* _advance: the current ship is done: resolve the next ships until someone must decide. */
    _advance() {
      this.phase = MOVE;  // placeholder until a decision or the round's end sets it
      this.ship += 1;
      while (this.ship < NUM_SHIPS) {
        if (this._startShip()) return;
        this.ship += 1;
      }
      this._endRound();
    }

    /* _start_ship: reveal the bids for the current ship; true when a decision is now pending. */
    _startShip() {
      const ship = this.ship;
      const cards = this.bids.map((bids) => bids[ship]);
      const best = Math.max(...cards);
      const bidders = [];
      cards.forEach((card, seat) => { if (card === best) bidders.push(seat); });
      const event = {type: "reveal", ship, cards, winner: null, steps: 0, tied: [], deciding: []};
      this.emit(event);
      if (bidders.length === 1) return this._beginMove(event, bidders[0], best - count(cards, THIEF));
      this.tied = bidders.filter((seat) => !this.tbRevealed[seat]);
      event.tied = bidders;
      event.deciding = this.tied.slice();
      if (!this.tied.length) return false;
      this.phase = TIEBREAK;
      this.acting = this.tied;
      return true;
    }

    /* _tiebreak */
    _tiebreak(actions) {
      const ship = this.ship;
      const shown = new Array(this.numPlayers).fill(null);
      for (const seat of this.tied) {
        if (actions.get(seat) === "reveal") {
          this.tbRevealed[seat] = true;
          shown[seat] = this.tiebreaker[seat];
        }
      }
      const event = {type: "tiebreak", ship, cards: shown, winner: null, steps: 0};
      this.emit(event);
      this.tied = [];
      const revealed = shown.filter((card) => card !== null);
      if (revealed.length && count(revealed, Math.max(...revealed)) === 1) {
        const cards = this.bids.map((bids) => bids[ship]);
        const thieves = count(cards, THIEF) + count(revealed, THIEF);
        if (this._beginMove(event, shown.indexOf(Math.max(...revealed)), Math.max(...cards) - thieves)) return;
      }
      this._advance();
    }

    /* _begin_move: give `player` control (recorded in `event`); true if they have a choice. */
    _beginMove(event, player, steps) {
      this.phase = MOVE;
      this.controller = player;
      this.stepsLeft = Math.max(0, steps);
      this.transfersLeft = MAX_TRANSFERS;
      this.acting = [player];
      event.winner = player;
      event.steps = this.stepsLeft;
      if (isEnd(this._moveActions())) {
        this._finishMove();
        return false;
      }
      return true;
    }

    /* _end_round */
    _endRound() {
      this.controller = null;
      if (this._gameOver()) {
        this.phase = OVER;
        this.acting = [];
        this.emit({type: "game_end", round: this.round, scores: this.scores.slice()});
        return;
      }
      const placed = this.reserve.slice(0, 2);
      this.reserve = this.reserve.slice(2);
      for (const port of placed) this.chestStatus[port] = ON_PORT;
      this.emit({type: "round_end", round: this.round, chests: placed});
      this.round += 1;
      this._beginRound();
    }

    /* _game_over */
    _gameOver() {
      if (Math.max(...this.scores) >= this.target || this.round >= this.maxRounds) return true;
      // Nothing left to win: no chest in the reserve, on a port or on a ship.
      return !this.reserve.length && !this.chestStatus.includes(ON_PORT) && !this.chestStatus.includes(ON_SHIP);
    }

    /* observation (engines/karibik/_observation.py observe) */
    observation(player) {
      return observe(this, player);
    }

    /* engines/karibik/_view.py omniscient_view */
    omniscient() {
      return omniscientView(this);
    }
  }

  function count(values, value) {
    let n = 0;
    for (const v of values) if (v === value) n++;
    return n;
  }

  /* bribe_problem: why `action` is not a valid bribe assignment, or null when it is. */
  function bribeProblem(action) {
    if (!Array.isArray(action) || action.length !== NUM_SHIPS) {
      return "a bribe is a list of " + NUM_SHIPS + " card values, one per ship in order " + JSON.stringify(SHIPS) +
        ", e.g. [5, 4, 3, 2, 1, 0]; got " + JSON.stringify(action);
    }
    for (let ship = 0; ship < NUM_SHIPS; ship++) {
      const card = action[ship];
      if (typeof card !== "number" || !CARDS.includes(card)) {
        return "card for " + SHIPS[ship] + " must be one of " + JSON.stringify(CARDS) + ", got " + JSON.stringify(card);
      }
    }
    if (new Set(action).size !== NUM_SHIPS) {
      const twice = action.find((card) => count(action, card) > 1);
      return "each card can go to one ship only; " + twice + " is used twice in " + JSON.stringify(action);
    }
    return null;
  }

  // -- engines/karibik/_moves.py: MovePhase ----------------------------------------------------

  /* `actions == [END]`: the only move left is ["end"]. */
  function isEnd(actions) {
    return actions.length === 1 && actions[0][0] === "end";
  }

  Object.assign(KaribikState.prototype, {
    /* _move_actions */
    _moveActions() {
      const ship = this.ship;
      const area = this.shipArea[ship];
      const near = this.board.neighbours[area];
      const carried = this.shipChest[ship];
      const actions = [];
      if (this.stepsLeft) {
        const occupied = this.shipArea;
        for (const a of near) if (!occupied.includes(a)) actions.push(["move", a]);
      }
      if (carried === null && this.chestStatus[area] === ON_PORT) actions.push(["loot"]);
      if (this.transfersLeft) {
        for (let other = 0; other < NUM_SHIPS; other++) {
          if (other !== ship && near.includes(this.shipArea[other])) {
            const cargo = this.shipChest[other];
            if (carried === null) {
              if (cargo !== null) actions.push(["rob", other]);
            } else {
              actions.push([cargo === null ? "hand" : "exchange", other]);
            }
          }
        }
      }
      if (carried !== null && this.hideoutOwner[area] !== null) actions.push(["deliver"]);
      actions.push(["end"]);
      return actions;
    },

    /* _apply_move */
    _applyMove(action) {
      const verb = action[0];
      const ship = this.ship;
      if (verb === "end") {
        this._finishMove();
        this._advance();
        return;
      }
      if (verb === "move") {
        const origin = this.shipArea[ship];
        this.shipArea[ship] = action[1];
        this.stepsLeft -= 1;
        this.emit({type: "move", ship, from: origin, to: action[1]});
      } else if (verb === "loot") {
        const area = this.shipArea[ship];
        this.chestStatus[area] = ON_SHIP;
        this.shipChest[ship] = area;
        this.scores[this.controller] += LOOT_GAIN;
        this.emit({type: "loot", ship, chest: area, player: this.controller, gain: LOOT_GAIN});
      } else if (verb === "deliver") {
        this._deliver(ship);
      } else {
        this._transfer(verb, action[1]);
      }
      if (isEnd(this._moveActions())) {
        this._finishMove();
        this._advance();
      }
    },

    /* _transfer */
    _transfer(verb, other) {
      const ship = this.ship;
      const mine = this.shipChest[ship], theirs = this.shipChest[other];
      this.shipChest[ship] = theirs;
      this.shipChest[other] = mine;
      this.transfersLeft -= 1;
      this.emit({type: verb, ship, other, gave: mine, got: theirs});
      // Handing over or exchanging with a ship in a hideout makes it unload there ([R] 5).
      if (verb !== "rob" && this.hideoutOwner[this.shipArea[other]] !== null) this._deliver(other);
    },

    /* _deliver */
    _deliver(ship) {
      const area = this.shipArea[ship];
      const chest = this.shipChest[ship];
      const owner = this.hideoutOwner[area];
      const value = this.board.chestValue[chest];
      this.scores[owner] += value;
      this.chestStatus[chest] = DELIVERED;
      this.shipChest[ship] = null;
      this.emit({type: "deliver", ship, area, chest, owner, gain: value});
    },

    /* _finish_move: end the current ship's move; a ship ending in a hideout must unload there. */
    _finishMove() {
      const ship = this.ship;
      if (this.shipChest[ship] !== null && this.hideoutOwner[this.shipArea[ship]] !== null) this._deliver(ship);
      this.emit({type: "move_end", ship});
      this.emit({type: "end", ship});  // protocol 1.x alias of move_end
      this.controller = null;
      this.stepsLeft = 0;
    },
  });

  // -- engines/karibik/_observation.py: observe -----------------------------------------------

  /* observe: what `player` sees (protocol/games/karibik.md). A fresh object but for `board`,
     which is shared and frozen. */
  function observe(state, player) {
    const board = state.board;
    const revealed = state.ship + 1;
    const own = state.bids[player];
    return {
      seat: player,
      players: state.numPlayers,
      board: board.asDict(),
      round: state.round,
      max_rounds: state.maxRounds,
      target: state.target,
      scores: state.scores.slice(),
      phase: state.phase,
      acting: state.acting.slice(),
      ship: state.ship >= 0 && state.ship < NUM_SHIPS && state.phase !== OVER ? state.ship : null,
      ships: state.shipArea.map((area, ship) => [area, state.shipChest[ship]]),
      chests: board.ports.map((port) => CHEST_STATES[state.chestStatus[port]]),
      reserve_pairs: Math.floor(state.reserve.length / 2),
      revealed: state.bids.map((bids) => (bids === null ? null : bids.slice(0, Math.max(0, revealed)))),
      tiebreakers: state.tiebreaker.map((tb, seat) => (state.tbRevealed[seat] ? tb : null)),
      my_bids: own === null ? null : own.slice(),
      my_tiebreaker: state.tiebreaker[player],
      tied: state.tied.slice(),
      controller: state.controller,
      steps_left: state.stepsLeft,
      transfers_left: state.transfersLeft,
    };
  }

  // -- engines/karibik/_view.py: omniscient_view ---------------------------------------------

  /* omniscient_view: the reserve chests in draw order. */
  function omniscientView(state) {
    return {reserve_order: state.reserve.slice()};
  }

  // -- engines/karibik/__init__.py + engines/_core.py Game.new_state ------------------------

  ArenaRules["karibik"] = {
    /* Game.new_state: `seed` a decimal string (seeds pass 2**53), `options` resolved (every
       option present, as GAME.resolve_options returns). */
    newState(players, seed, options) {
      if (!(Number.isInteger(players) && players >= 2 && players <= 4)) {
        throw new Error("karibik is for 2-4 players, not " + players);
      }
      if (!Object.prototype.hasOwnProperty.call(BOARDS, options.board)) {
        throw new Error("option 'board' of karibik must be one of " + JSON.stringify(Object.keys(BOARDS)) +
          ", got " + JSON.stringify(options.board));
      }
      if (!(Number.isInteger(options.max_rounds) && options.max_rounds >= 1 && options.max_rounds <= 100)) {
        throw new Error("option 'max_rounds' of karibik must be an integer 1..100, got " + JSON.stringify(options.max_rounds));
      }
      return new KaribikState(players, new PyRandom(String(seed)), options);
    },
  };
})();
