/* Opito Bay's rules in JavaScript: a twin of the Python engine (engines/opito_bay/), for the
   report's replay viewer, which ships only seed + actions and re-plays each game here.

   ArenaRules["opito-bay"].newState(players, seed, options) returns a state whose acting,
   decision(seat), legalActions(seat), apply(step), observation(seat), omniscient(), log and
   isTerminal() equal the Python state's (JSON value equality). Needs PyRandom
   (arena/report/assets/pyrandom.js): the rng calls are Python's, in Python's order.

   One section per Python module, in the order the modules build on each other; the private
   names are the Python ones (snake_case) so the two read side by side. A change to the Python
   rules needs the same change here: tests/engines/test_rules_js.py replays seeded random games
   through both and compares every state, tests/engines/opito_bay/test_rules_twin.py does so for
   games found to reach the rules random play rarely does (fractional scores, the 40-deal cap...).

   Scores: Python's Table keeps exact scores as integer numerators over a power of two and rounds
   with `>>`; only the rounded points (JS numbers, well inside 2^31) reach observations and
   events. The Fraction-valued deal_scores() is not part of the twin. */
"use strict";
(function () {

  // ---- _cards.py ---------------------------------------------------------------------------

  const SUITS = "DSCH";
  const JOKER = "X";
  // ranks a Joker may be played as (any but Ace and Queen), in play-menu order
  const JOKER_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "K"];
  const TREASURE_RANKS = "2468T";
  // face value of each treasure rank (x 100 points)
  const TREASURE_VALUE = {"2": 2, "4": 4, "6": 6, "8": 8, "T": 10};
  // the 51 cards that are shuffled each deal (no Aces), in a fixed order
  const DECK = [];
  for (const suit of SUITS) for (const rank of "23456789TJQK") DECK.push(rank + suit);
  DECK.push(JOKER, JOKER, JOKER);

  const isTreasureRank = (rank) => TREASURE_RANKS.includes(rank);

  // ---- _table.py ---------------------------------------------------------------------------
  // A node is [card, rank, on, root]; `on` is null for a treasure or a Queen.

  class Table {
    constructor() {
      this.nodes = [];
      // node id -> owning seat (only meaningful for roots; null for other nodes)
      this.owner = [];
      // ids of the treasure roots, in the order played
      this.treasures = [];
    }

    // Table.place
    place(card, rank, seat) {
      const node_id = this.nodes.length;
      this.nodes.push([card, rank, null, node_id]);
      this.owner.push(seat);
      if (isTreasureRank(rank)) this.treasures.push(node_id);
      return node_id;
    }

    // Table.lay
    lay(card, rank, on) {
      const node_id = this.nodes.length;
      this.nodes.push([card, rank, on, this.nodes[on][3]]);
      this.owner.push(null);
      return node_id;
    }

    // Table.swap
    swap(first, second) {
      const owner = this.owner;
      [owner[first], owner[second]] = [owner[second], owner[first]];
    }

    // Table.can_swap: true when `seat` owns a treasure and another player owns one too
    can_swap(seat) {
      let mine = false, theirs = false;
      for (const node_id of this.treasures) {
        if (this.owner[node_id] === seat) mine = true;
        else theirs = true;
      }
      return mine && theirs;
    }

    // Table.live
    live() {
      return live_nodes(this.nodes);
    }

    // Table.points: every seat's deal score rounded down
    points(aces, live) {
      const [numerators, shift] = scaled_scores(this.nodes, this.owner, aces, live);
      // Python's `numerator >> shift` rounds towards minus infinity, as Math.floor does
      return numerators.map((numerator) => Math.floor(numerator / 2 ** shift));
    }
  }

  // live_nodes: per node, false when a live King lies on it (Kings only lie on older nodes)
  function live_nodes(nodes) {
    const live = new Array(nodes.length).fill(true);
    for (let node_id = nodes.length - 1; node_id >= 0; node_id--) {
      const [, rank, on] = nodes[node_id];
      if (rank === "K" && live[node_id]) live[on] = false;
    }
    return live;
  }

  // scaled_scores: every seat's exact deal score as [numerators, shift], score = numerator / 2**shift
  // (plain loops: the observation scores the table on every decision)
  function scaled_scores(nodes, owner, aces, live) {
    if (live === undefined) live = live_nodes(nodes);
    const exponent = new Array(nodes.length).fill(0);
    for (let node_id = 0; node_id < nodes.length; node_id++) {
      const node = nodes[node_id], rank = node[1], on = node[2];
      if ((rank === "3" || rank === "7") && on !== null && live[node_id]) exponent[on] += rank === "3" ? 1 : -1;
    }
    const numerators = new Array(aces.length).fill(0);
    const halvings = [];  // [seat, value, power < 0]: scaled once shift is known
    for (let node_id = 0; node_id < nodes.length; node_id++) {
      const node = nodes[node_id], card = node[0], rank = node[1];
      if (node[2] !== null || !live[node_id]) continue;
      const seat = owner[node_id];
      const same_suit = card.length === 2 && card[1] === aces[seat];  // a Joker ("X") has no suit
      if (rank === "Q") {
        numerators[seat] -= same_suit ? 4000 : 2000;
        continue;
      }
      const power = exponent[node_id] + (same_suit ? 1 : 0);
      if (power >= 0) numerators[seat] += TREASURE_VALUE[rank] * 100 * 2 ** power;
      else halvings.push([seat, TREASURE_VALUE[rank] * 100, power]);
    }
    if (!halvings.length) return [numerators, 0];
    let shift = 0;
    for (const [, , power] of halvings) shift = Math.max(shift, -power);
    for (let seat = 0; seat < numerators.length; seat++) numerators[seat] *= 2 ** shift;
    for (const [seat, value, power] of halvings) numerators[seat] += value * 2 ** (power + shift);
    return [numerators, shift];
  }

  // ---- _knowledge.py -----------------------------------------------------------------------
  // top[seat]: what seat knows of the library from the top down (a card or null, never ending
  // in null); hands[seat][other]: cards seat saw on the library that other then drew.

  class Knowledge {
    constructor(num_players) {
      this.top = [];
      this.hands = [];
      for (let seat = 0; seat < num_players; seat++) {
        this.top.push([]);
        const row = [];
        for (let other = 0; other < num_players; other++) row.push([]);
        this.hands.push(row);
      }
    }

    // Knowledge.drew: the top card of the library went into drawer's hand
    drew(drawer) {
      this.top.forEach((known, seat) => {
        if (known.length) {
          const card = known.shift();
          if (card !== null && seat !== drawer) this.hands[seat][drawer].push(card);
          while (known.length && known[known.length - 1] === null) known.pop();
        }
      });
    }

    // Knowledge.left_hand: seat played or discarded card (now public)
    left_hand(seat, card) {
      for (const row of this.hands) {
        const index = row[seat].indexOf(card);
        if (index >= 0) row[seat].splice(index, 1);
      }
    }

    // Knowledge.hand_gone: seat's hand went to the bottom of the library (a Kraken)
    hand_gone(seat) {
      for (const row of this.hands) row[seat] = [];
    }

    // Knowledge.looked: seat put cards (top first) back on top in this order; others lose that order
    looked(seat, cards) {
      const window = cards.length;
      this.top[seat] = cards.concat(this.top[seat].slice(window));
      this.top.forEach((known, other) => {
        if (other !== seat && known.length) {
          known.fill(null, 0, Math.min(window, known.length));
          while (known.length && known[known.length - 1] === null) known.pop();
        }
      });
    }

    // Knowledge.clear
    clear() {
      for (const known of this.top) known.length = 0;
      for (const row of this.hands) for (const cards of row) cards.length = 0;
    }
  }

  // ---- _state.py ---------------------------------------------------------------------------

  const HAND_SIZE = 5;
  const SPYGLASS = 5;
  const KRAKEN_MIN_LIBRARY = 5;
  // [R] a game stops after at most this many deals whatever the totals
  const MAX_DEALS = 40;

  // engines.same_value for JSON values: equal and of the same types throughout
  function same_value(a, b) {
    if (Array.isArray(a)) {
      return Array.isArray(b) && a.length === b.length && a.every((item, index) => same_value(item, b[index]));
    }
    return a === b;
  }

  // engines.Outcome.from_keys(totals).ranks: 1 + how many seats have more
  function ranks_of(keys) {
    return keys.map((mine) => 1 + keys.filter((other) => other > mine).length);
  }

  // [list(order) for order in dict.fromkeys(itertools.permutations(items))]: the orders in
  // itertools' order (lexicographic in positions), a repeated order kept where it first comes
  function distinct_permutations(items) {
    const repeats = new Set(items).size < items.length;
    const seen = new Set();
    const orders = [];
    const used = new Array(items.length).fill(false);
    const current = [];
    const extend = () => {
      if (current.length === items.length) {
        if (repeats) {
          const key = current.join(",");
          if (seen.has(key)) return;
          seen.add(key);
        }
        orders.push(current.slice());
        return;
      }
      for (let index = 0; index < items.length; index++) {
        if (used[index]) continue;
        used[index] = true;
        current.push(items[index]);
        extend();
        current.pop();
        used[index] = false;
      }
    };
    extend();
    return orders;
  }

  class OpitoState {
    // OpitoState.__init__ (with State.__init__ and Game.new_state's random.Random(seed))
    constructor(num_players, seed, options) {
      this.num_players = num_players;
      this.rng = new PyRandom(seed);
      this.options = options;
      this.acting = [];
      this.log = [];
      this._seat(this.rng.sample(SUITS.split(""), num_players));
      this.deal = 0;
      this.emit({type: "seats", aces: this.aces.map((suit) => "A" + suit), order: this.order.slice()});
      this._start_deal();
    }

    // State.emit: audience null (everyone) or the sorted seats that may see the event
    emit(data, audience) {
      this.log.push([data, audience === undefined ? null : audience]);
    }

    // -- setup --

    // OpitoState._start_deal (a replay never clones, so the rng is never shared)
    _start_deal() {
      this.deal += 1;
      const deck = DECK.slice();
      this.rng.shuffle(deck);
      this.hands = [];
      for (let seat = 0; seat < this.num_players; seat++) {
        this.hands.push(deck.slice(seat * HAND_SIZE, (seat + 1) * HAND_SIZE));
      }
      this.library = deck.slice(this.num_players * HAND_SIZE);
      this.graveyard = [];
      this.table = new Table();
      this.know.clear();
      this.emit({type: "deal", deal: this.deal, library: this.library.length});
      this.hands.forEach((hand, seat) => this.emit({type: "hand", seat: seat, cards: hand.slice()}, [seat]));
      this._begin_turn(this.order[0]);
    }

    // OpitoState._seat: seat the players by their Aces; play order follows the compass (N, E, S, W)
    _seat(aces) {
      this.aces = aces.slice();
      this.order = aces.map((_, seat) => seat).sort((a, b) => SUITS.indexOf(aces[a]) - SUITS.indexOf(aces[b]));
      this.totals = new Array(aces.length).fill(0);
      this.deal_history = [];
      this.deal = 1;
      this.know = new Knowledge(aces.length);
    }

    // -- decisions --

    decision(player) {
      return this.phase;
    }

    // OpitoState._playable_ranks: [R]4, the ranks seat may play now
    _playable_ranks(seat) {
      const table = this.table;
      let ranks = "24568TJQX";
      if (table.treasures.length) ranks += table.can_swap(seat) ? "37K9" : "37K";
      else if (table.nodes.length) ranks += "K";
      return ranks;
    }

    // OpitoState._plays
    _plays(seat) {
      const ranks = this._playable_ranks(seat);
      const plays = [];
      let joker = false;
      for (const card of this.hands[seat]) {
        if (card === JOKER) {
          if (!joker) {
            joker = true;
            for (const rank of JOKER_RANKS) if (ranks.includes(rank)) plays.push(JOKER + rank);
          }
        } else if (ranks.includes(card[0])) {
          plays.push(card);
        }
      }
      return plays;
    }

    // OpitoState.legal_actions
    legalActions(player) {
      const phase = this.phase;
      if (phase === "play") return this._plays(player);
      if (phase === "discard") return [...new Set(this.hands[player])];
      const table = this.table;
      if (phase === "target") {
        return this.pending[1] !== "K" ? table.treasures.slice() : table.nodes.map((_, node_id) => node_id);
      }
      if (phase === "player") return Array.from({length: this.num_players}, (_, seat) => seat);
      if (phase === "swap") return table.treasures.filter((node) => table.owner[node] === player);
      if (phase === "swap_with") return table.treasures.filter((node) => table.owner[node] !== player);
      return distinct_permutations(this.looking());
    }

    // OpitoState.looking: the cards under the pending 5's look, top first
    looking() {
      return this.window ? this.library.slice(-this.window).reverse() : [];
    }

    // OpitoState._check (and State._check: the listed actions, compared strictly)
    _check(player, action) {
      if (this.phase === "spyglass") {
        const looking = this.looking();
        if (!Array.isArray(action) || action.some((card) => typeof card !== "string")
            || !same_value(action.slice().sort(), looking.slice().sort())) {
          throw new Error(`player ${player}: ${JSON.stringify(action)} is not an order of the cards you look at`);
        }
        return;
      }
      if (!this.legalActions(player).some((legal) => same_value(legal, action))) {
        throw new Error(`player ${player}: ${JSON.stringify(action)} is not a legal ${this.decision(player)} action`);
      }
    }

    // -- applying --

    // State.apply: one [seat, action] pair per acting seat, all checked before any is applied
    apply(step) {
      if (!this.acting.length) throw new Error("the game is over");
      const seats = step.map(([seat]) => seat).sort((a, b) => a - b);
      const acting = this.acting.slice().sort((a, b) => a - b);
      if (!same_value(seats, acting)) {
        throw new Error(`expected actions from seats ${JSON.stringify(this.acting)}, got ${JSON.stringify(seats)}`);
      }
      for (const [seat, action] of step) this._check(seat, action);
      const actions = new Map(step);
      this._apply(actions);
    }

    // OpitoState._apply
    _apply(actions) {
      this.advance(actions.get(this.turn));
    }

    // OpitoState.advance
    advance(action) {
      this["_on_" + this.phase](this.turn, action);
    }

    // OpitoState._on_play
    _on_play(seat, action) {
      const [card, rank] = action[0] === JOKER ? [JOKER, action[1]] : [action, action[0]];
      const hand = this.hands[seat];
      hand.splice(hand.indexOf(card), 1);
      this.know.left_hand(seat, card);
      this.pending = [card, rank];
      if (isTreasureRank(rank)) {
        return this._end_turn(this._played({id: this.table.place(card, rank, seat), owner: seat}));
      }
      if ("37K".includes(rank)) this.phase = "target";
      else if (rank === "Q") this.phase = "player";
      else if (rank === "9") this.phase = "swap";
      else if (rank === "J") {
        if (this.library.length >= KRAKEN_MIN_LIBRARY) this.phase = "player";
        else this._kraken(null);
      } else this._spyglass(seat);
    }

    // OpitoState._played: the public event of the pending card's play
    _played(fields) {
      const [card, rank] = this.pending;
      return Object.assign({type: "play", seat: this.turn, card: card, as: rank}, fields);
    }

    // OpitoState._on_discard
    _on_discard(seat, card) {
      const hand = this.hands[seat];
      hand.splice(hand.indexOf(card), 1);
      this.know.left_hand(seat, card);
      this.graveyard.push(card);
      this._end_turn({type: "discard", seat: seat, card: card});
    }

    // OpitoState._on_target
    _on_target(seat, on) {
      const [card, rank] = this.pending;
      this._end_turn(this._played({id: this.table.lay(card, rank, on), on: on}));
    }

    // OpitoState._on_player
    _on_player(seat, target) {
      const [card, rank] = this.pending;
      if (rank === "J") return this._kraken(target);
      this._end_turn(this._played({id: this.table.place(card, rank, target), owner: target}));
    }

    // OpitoState._on_swap
    _on_swap(seat, mine) {
      this.swap_from = mine;
      this.phase = "swap_with";
    }

    // OpitoState._on_swap_with
    _on_swap_with(seat, theirs) {
      this.graveyard.push(this.pending[0]);
      const other = this.table.owner[theirs];
      this.table.swap(this.swap_from, theirs);
      this._end_turn(this._played({swap: [this.swap_from, theirs], other: other}));
    }

    // OpitoState._kraken: a Jack; target puts their hand under the library and draws 5 (null: no effect)
    _kraken(target) {
      this.graveyard.push(this.pending[0]);
      if (target === null) return this._end_turn(this._played({target: null, returned: 0}));
      const hand = this.hands[target];
      this.library.unshift(...hand.slice().reverse());  // under the library, the hand's first card uppermost
      this.hands[target] = [];
      this.know.hand_gone(target);
      for (let draw = 0; draw < KRAKEN_MIN_LIBRARY; draw++) this._draw(target);
      const private_ = {type: "hand", seat: target, cards: this.hands[target].slice()};
      this._end_turn(this._played({target: target, returned: hand.length}), [target, private_]);
    }

    // OpitoState._spyglass: a 5; look at up to 5 top cards, reorder them if more than one order exists
    _spyglass(seat) {
      this.window = Math.min(SPYGLASS, this.library.length);
      const looking = this.looking();
      this.emit({type: "seen", seat: seat, cards: looking}, [seat]);
      if (new Set(looking).size > 1) this.phase = "spyglass";
      else this._on_spyglass(seat, looking);
    }

    // OpitoState._on_spyglass
    _on_spyglass(seat, order) {
      order = order.slice();
      const window = this.window;
      if (window) this.library.splice(this.library.length - window, window, ...order.slice().reverse());
      this.know.looked(seat, order);
      this.graveyard.push(this.pending[0]);
      this.window = 0;
      this._end_turn(this._played({look: window}));
    }

    // OpitoState._draw
    _draw(seat) {
      const card = this.library.pop();
      this.hands[seat].push(card);
      this.know.drew(seat);
      return card;
    }

    // OpitoState._end_turn: announce the play, draw a card if the library has one, pass on
    _end_turn(event, private_) {
      const seat = this.turn;
      event.drew = this.library.length > 0;
      this.emit(event);
      if (private_ !== undefined) this.emit(private_[1], [private_[0]]);
      if (this.library.length) this.emit({type: "drew", seat: seat, card: this._draw(seat)}, [seat]);
      const order = this.order;
      const start = order.indexOf(seat);
      for (let step = 1; step <= order.length; step++) {
        const following = order[(start + step) % order.length];
        if (this.hands[following].length) return this._begin_turn(following);
      }
      this._end_deal();
    }

    // OpitoState._begin_turn
    _begin_turn(seat) {
      this.turn = seat;
      this.pending = null;
      this.swap_from = null;
      this.window = 0;
      this.acting = [seat];
      const ranks = this._playable_ranks(seat);
      this.phase = this.hands[seat].some((card) => ranks.includes(card[0])) ? "play" : "discard";
    }

    // OpitoState._end_deal
    _end_deal() {
      const points = this.table.points(this.aces);
      this.deal_history.push(points);
      this.totals = this.totals.map((total, seat) => total + points[seat]);
      this.emit({type: "score", deal: this.deal, points: points.slice(), totals: this.totals.slice()});
      if (this._game_over()) {
        this.acting = [];
        this.phase = "over";
        this.emit({type: "end", totals: this.totals.slice(), ranks: ranks_of(this.totals)});
      } else {
        this._start_deal();
      }
    }

    // OpitoState._game_over
    _game_over() {
      const deals = this.options.deals;
      if (deals) return this.deal >= deals;
      return this.deal >= MAX_DEALS || this.totals.some((total) => total > this.options.target);
    }

    // State.is_terminal
    isTerminal() {
      return !this.acting.length;
    }

    observation(player) {
      return observe(this, player);
    }

    omniscient() {
      return omniscient_view(this);
    }
  }

  // ---- _observation.py ---------------------------------------------------------------------

  // observe: the observation of player (protocol/games/opito-bay.md)
  function observe(state, player) {
    const table = state.table;
    const live = table.live();
    const owner = table.owner;
    const over = !state.acting.length;
    const spying = state.phase === "spyglass" && state.turn === player;
    return {
      seat: player,
      players: state.num_players,
      aces: state.aces.map((suit) => "A" + suit),
      order: state.order.slice(),
      deal: state.deal,
      deals: state.options.deals,
      target: state.options.target,
      max_deals: MAX_DEALS,
      totals: state.totals.slice(),
      deal_history: state.deal_history.map((points) => points.slice()),
      turn: over ? null : state.turn,
      decision: over ? null : state.phase,
      hand: state.hands[player].slice(),
      hand_sizes: state.hands.map((hand) => hand.length),
      library: state.library.length,
      graveyard: state.graveyard.slice(),
      table: table.nodes.map(([card, rank, on, root], node_id) => (
        {id: node_id, card: card, as: rank, on: on, owner: owner[root], live: live[node_id]})),
      deal_points: table.points(state.aces, live),
      pending: state.pending === null ? null : {card: state.pending[0], as: state.pending[1]},
      swap_from: state.swap_from,
      window: state.window,
      looking: spying ? state.looking() : [],
      library_top: state.know.top[player].slice(),
      seen_in_hands: state.know.hands[player].map((cards) => cards.slice()),
    };
  }

  // ---- _view.py ----------------------------------------------------------------------------

  // omniscient_view: the library in order, bottom first
  function omniscient_view(state) {
    return {library_order: state.library.slice()};
  }

  // ---- registration ------------------------------------------------------------------------

  const ArenaRules = globalThis.ArenaRules = globalThis.ArenaRules || {};
  ArenaRules["opito-bay"] = {
    newState(players, seed, options) {
      return new OpitoState(players, seed, options);
    },
  };
})();
