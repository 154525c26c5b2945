/* `arena play`'s page: one seat of a live game, as that seat sees it, with the person's
   decisions as controls. Everything shown comes over the page's WebSocket (arena/play/_app.py):
   the seat's observation, its events since the person's last decision, who the game waits for,
   the open decision with its legal actions; at the end the result and the whole game. The
   drawing and the words are the replay viewer's (ArenaRenderers, ArenaText; the game's
   viewer.js), the end's replay viewer is shell.js's Viewer.

   A decision's controls are a button per legal action, each with what it does. A game may
   bring its own (its play.js beside its engine, optional) as
   ArenaControls[gameId] = {
     form(decision, observation, ctx, page) -> HTML of a form instead of the buttons, or null,
     wire(box, decision, observation, page): wire what form drew,
     choices(decision, observation, ctx, page) -> {indices, hint}: the legal actions shown as
       buttons and a hint above them (the rest are chosen elsewhere, e.g. on the board), or null,
     board(decision, observation, page): mark the drawn board (after every drawing),
   }, every member optional; page = {seat, current(), ctxFor(observation), choose(decision,
   index), answer(decision, message), yours(html, capital)}. */
"use strict";
(() => {
  const esc = ArenaText.esc;
  const $ = (selector) => document.querySelector(selector);
  const info = JSON.parse($("#play-data").textContent);
  const gameId = info.game;
  const render = ArenaRenderers[gameId];
  const controls = (window.ArenaControls || {})[gameId] || {};

  /* For tests and curious readers: every message received and every answer sent. */
  const record = {received: [], sent: []};
  window.arenaPlay = record;

  let welcome = null;      // the table: game, seat, names, options (public)
  let socket = null;
  let current = null;      // the last message
  let shown = null;        // the decision whose controls are on screen (its id)
  let atDecision = null;   // the observation when the person last decided (names in events)
  let boardKey = null;     // the observation drawn (as JSON)
  let clockTimer = null;
  let overNumber = 0;
  let viewer = null;

  const ctxFor = (observation) => ArenaText.context({
    game: gameId, seat: welcome.seat, you: welcome.seat, players: welcome.players, bots: welcome.names,
    options: welcome.options, view: observation, before: atDecision || observation});

  const yours = ArenaText.toYou;
  const yourEvents = ArenaText.toYouEvents;
  const page = {
    get seat() { return welcome.seat; },
    current: () => current,
    ctxFor: (observation) => ctxFor(observation),
    choose: (decision, index) => choose(decision, index),
    answer: (decision, message) => answer(decision, message),
    yours,
  };
  const plain = (htmlText) => { const box = document.createElement("div"); box.innerHTML = htmlText; return box.textContent.replace(/\s+/g, " ").trim(); };

  function connect() {
    const url = new URL("ws", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(url);
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      record.received.push(message);
      try { handle(message); } catch (error) { recordError("play: " + (error && error.stack || error)); }
    };
    socket.onopen = () => { $("#conn").hidden = true; };
    socket.onclose = () => {
      const conn = $("#conn");
      conn.hidden = false;
      conn.textContent = "connection to the arena lost; trying again… (the game waits for you on the server)";
      setTimeout(connect, 1000);
    };
  }

  function send(message) {
    record.sent.push(message);
    socket.send(JSON.stringify(message));
  }

  function handle(message) {
    if (message.type === "welcome") return showWelcome(message);
    current = message;
    if (message.type === "state") return showState(message);
    if (message.type === "over") return showOver(message);
    $("#turn").textContent = "the game is about to start…";
  }

  function showWelcome(message) {
    welcome = message;
    const ctx = ArenaText.context({game: gameId, players: message.players, bots: message.names, you: message.seat});
    const others = message.names.map((_, s) => s).filter((s) => s !== message.seat).map((s) => ctx.who(s));
    $("#heading").innerHTML = `${esc(message.title)}: ${ctx.who(message.seat)} play <b>seat ${message.seat}</b>` +
      `${message.random_seat ? ' <span class="muted">(drawn at random)</span>' : ""}` +
      ` <span class="muted">(your games are recorded as ${esc(message.names[message.seat])})</span>`;
    const options = Object.entries(message.options).map(([k, v]) => `${esc(k)}=${esc(JSON.stringify(v))}`).join(", ");
    $("#table").innerHTML = `${message.players} players: you against ${ArenaText.list(others)} · options ${options || "none"} · ` +
      `bots: ${message.bot_limits[0]} ms a move, ${message.bot_limits[1]} ms reserve · ` +
      (message.human_move_ms ? `you: ${ArenaText.ms(message.human_move_ms)} a decision` : "you: no clock");
    $("#where").textContent = "Games: " + message.where + ".";
    const legend = yours(ArenaText.legend(ctx));
    $("#legend-body").innerHTML = legend;
    $("#legend").hidden = !legend;
    document.title = `${message.title}: seat ${message.seat} · arena play`;
  }

  /* The live game: the board, the events, whose turn, the person's decision. */
  function showState(message) {
    if (!welcome) return;
    if (message.number !== overNumber) hideOver();
    const observation = message.observation;
    const ctx = ctxFor(observation);
    const key = JSON.stringify(observation);
    if (key !== boardKey) {
      boardKey = key;
      $("#board").innerHTML = render(observation, ctx);
    }
    // the sentences alone: the page shows no raw JSON (the end's replay viewer has it behind {})
    $("#events").innerHTML = yourEvents(ArenaText.eventList(message.events, ctx, {raw: false})) || '<span class="muted">nothing yet</span>';
    const decision = message.decision;
    const waiting = message.thinking.filter((s) => !(decision && s === welcome.seat));
    const turn = [];
    if (decision) turn.push(`<b class="yours">Your decision:</b> ${yours(`${ctx.who(welcome.seat)} ${ArenaText.decision(decision.kind, welcome.seat, ctx, observation)}`, true)}.`);
    if (waiting.length) turn.push(`<span class="thinking">${ArenaText.list(waiting.map((s) => s === welcome.seat ? "you" : ctx.who(s)))} ` +
      `${waiting.length === 1 && waiting[0] !== welcome.seat ? "is" : "are"} thinking…</span>`);
    if (!decision && !waiting.length) turn.push('<span class="muted">…</span>');
    $("#turn").innerHTML = turn.join(" ");
    const notice = $("#notice");
    notice.hidden = !message.notice;
    notice.textContent = message.notice ? "Not taken: " + message.notice : "";
    showFaults(message.faults, ctx);
    if (decision && decision.id !== shown) {
      shown = decision.id;
      buildControls(decision, observation, ctx);
    } else if (!decision && shown !== null) {
      shown = null;
      $("#controls").innerHTML = "";
      delete $("#controls").dataset.decision;
    }
    if (controls.board) controls.board(decision, observation, page);
    clock(decision);
    document.body.dataset.state = decision ? "deciding" : "waiting";
  }

  function showFaults(faults, ctx) {
    const box = $("#faults");
    const you = faults.filter((f) => f.seat === welcome.seat);
    box.innerHTML = faults.map((f) => {
      const who = f.seat === null || f.seat === undefined ? "the arena" : f.seat === welcome.seat ? "you" : ctx.who(f.seat);
      const what = FAULT_NAMES[f.kind] || f.kind;
      const then = f.seat === null || f.seat === undefined ? "the game stops here; no one is charged" :
        "as in a tournament, the arena's fallback plays this seat from here on (random legal moves), and it ranks last";
      return `<div class="fault">⚠ ${who} ${esc(f.seat === welcome.seat && f.kind === "timeout" ? "ran out of time" : what)}: ${then}. ` +
        '<span class="muted">(the details, and the bot\'s last log lines, at the end of the game)</span></div>';
    }).join("");
    if (you.length) $("#controls").innerHTML = "";
  }

  /* The person's clock: the time left for this decision, counted down. */
  function clock(decision) {
    const box = $("#clock");
    if (clockTimer) clearInterval(clockTimer);
    clockTimer = null;
    if (!decision || decision.left_ms === undefined) { box.hidden = true; return; }
    const end = performance.now() + decision.left_ms;
    const tick = () => {
      const left = Math.max(0, end - performance.now());
      box.hidden = false;
      box.className = "pclock" + (left < 5000 ? " low" : "");
      box.textContent = `your time: ${(left / 1000).toFixed(1)} s of ${(decision.move_ms / 1000).toFixed(1)} s`;
    };
    tick();
    clockTimer = setInterval(tick, 100);
  }

  /* -- the controls of a decision -------------------------------------------------------------- */

  function buildControls(decision, observation, ctx) {
    const box = $("#controls");
    box.classList.remove("sent");
    box.dataset.decision = String(decision.id);
    box.dataset.kind = decision.kind;
    const form = controls.form ? controls.form(decision, observation, ctx, page) : null;
    box.innerHTML = form || choiceButtons(decision, observation, ctx);
    wire(decision, observation);
  }

  function choiceButtons(decision, observation, ctx) {
    const seat = welcome.seat;
    const own = controls.choices ? controls.choices(decision, observation, ctx, page) : null;
    const hint = own ? own.hint : "";
    const indices = own ? own.indices : decision.legal.map((_, i) => i);
    // each choice with what it does: the action in words, and where the game tells more, what follows
    const rows = indices.map((i) => {
      const action = decision.legal[i];
      const brief = ArenaText.action(decision.kind, action, ctx, observation, seat, true);
      const full = ArenaText.action(decision.kind, action, ctx, observation, seat, false);
      const more = ArenaText.explain(decision.kind, action, ctx, observation, seat);
      const does = yours(`${ctx.who(seat)} ${full}`, true) + (more ? ": " + yours(more, true) : "");
      return `<div class="option"><button type="button" class="choice" data-choice="${i}" title="${esc(plain(does))}">${yours(brief, true)}</button>` +
        `<span class="does">${does}</span></div>`;
    });
    const off = ArenaText.unplayable(decision.kind, observation, decision.legal, ctx).map(([what, why]) =>
      `<div class="option off"><button type="button" class="choice" disabled>${what}</button><span class="does">cannot be played: ${yours(why, true)}</span></div>`);
    return `${hint}<div class="choices">${rows.join("")}${off.join("")}</div>`;
  }

  function wire(decision, observation) {
    const box = $("#controls");
    box.querySelectorAll("button.choice[data-choice]").forEach((button) =>
      button.addEventListener("click", () => choose(decision, Number(button.dataset.choice))));
    if (controls.wire) controls.wire(box, decision, observation, page);
  }

  function choose(decision, index) {
    answer(decision, {type: "act", decision: decision.id, choice: index});
  }

  function answer(decision, message) {
    atDecision = current && current.observation;
    $("#controls").querySelectorAll("button, input").forEach((element) => { element.disabled = true; });
    $("#controls").classList.add("sent");
    send(message);
    // a refused answer (a bribe the engine does not take) comes back as a notice: try again
    setTimeout(() => {
      if (current && current.decision && current.decision.id === decision.id) {
        $("#controls").querySelectorAll("button, input").forEach((element) => { element.disabled = false; });
        $("#controls").classList.remove("sent");
      }
    }, 400);
  }

  /* -- the end ------------------------------------------------------------------------------------ */

  function hideOver() {
    $("#over").hidden = true;
    $("#replay").hidden = true;
    $("#live").hidden = false;
    delete document.body.dataset.over;
  }

  async function showOver(message) {
    if (!welcome) return;
    overNumber = message.number;
    shown = null;
    atDecision = null;
    if (clockTimer) clearInterval(clockTimer);
    $("#clock").hidden = true;
    $("#controls").innerHTML = "";
    const ctx = ArenaText.context({game: gameId, players: welcome.players, bots: message.bots, you: welcome.seat,
                                   options: welcome.options});
    let outcome = "";
    if (message.observation) {
      $("#board").innerHTML = render(message.observation, ctxFor(message.observation));
      boardKey = JSON.stringify(message.observation);
      $("#events").innerHTML = yourEvents(ArenaText.eventList(message.events, ctxFor(message.observation), {raw: false})) || "";
      // why it ended and the scores broken down, in the game's words (not for a game stopped
      // at a fault: its end is not the game's)
      if (message.reason === "normal" || message.reason === "forfeit") {
        try {
          outcome = yours(ArenaText.outcome(message.observation, message.history || [], ctx));
        } catch (error) {
          recordError("play: the game's outcome: " + (error && error.stack || error));
        }
      }
    }
    if (message.reason === "forfeit") outcome = "<p>A seat forfeited (see the faults below): the arena's fallback played it to the end.</p>" + outcome;
    else if (message.reason !== "normal") outcome = "<p>The game stopped at a fault, before its end (see below): the scores are as they stood then.</p>";
    $("#turn").innerHTML = "<b>Game over.</b>";
    const order = message.ranks.map((rank, s) => [rank, s]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const rows = order.map(([rank, s]) => `<tr class="${s === welcome.seat ? "you" : ""}"><td>${rank}</td><td>${ctx.whoAt(s)}</td>` +
      `<td>${esc(String(message.scores[s]).replace(/^-(?=\d)/, "−"))}</td></tr>`).join("");
    const mine = message.ranks[welcome.seat];
    const best = Math.min(...message.ranks);
    const headline = mine === best ? (message.ranks.filter((r) => r === best).length > 1 ? "You share first place!" : "You win!") :
      `You finish ${ordinal(mine)}.`;
    const faults = message.faults.map((f) => `<li>${f.seat === null || f.seat === undefined ? "the arena" : ctx.who(f.seat)}: ` +
      `${esc(FAULT_NAMES[f.kind] || f.kind)} at step ${esc(f.step)}: <code>${esc(f.detail || "")}</code></li>`).join("");
    $("#over").innerHTML = `<h2>${headline}</h2><table class="result"><thead><tr><th>rank</th><th>player</th><th>score</th></tr></thead>` +
      `<tbody>${rows}</tbody></table><div class="outcome">${outcome}</div>` +
      `<div class="muted">${esc(message.reason)} · deal ${esc(message.seed)} · ${esc(message.saved)}</div>` +
      (faults ? `<div class="fault">Faults:<ul>${faults}</ul></div>` : "") +
      `<div class="again"><button type="button" class="again-new">Play again: a new deal</button> ` +
      `<button type="button" class="again-same">Play again: the same deal</button> <span class="muted">(the same seats and bots)</span></div>` +
      `<h2>The whole game</h2><div class="muted">Every view of it: pick "omniscient" or a seat.</div>`;
    $("#over").hidden = false;
    $("#live").hidden = true;  // the replay viewer below shows the end, and every step before it
    $("#over .again-new").addEventListener("click", () => again(false));
    $("#over .again-same").addEventListener("click", () => again(true));
    document.body.dataset.over = String(message.number);
    document.body.dataset.state = "over";
    await showReplay(message);
  }

  function again(same) {
    $("#over").querySelectorAll(".again button").forEach((b) => { b.disabled = true; });
    send({type: "again", same});
  }

  async function showReplay(message) {
    const root = $("#replay");
    root.hidden = false;
    if (!message.replay || message.replay.error) {
      root.textContent = "This game cannot be shown in the viewer: " + (message.replay ? message.replay.error : "no replay");
      return;
    }
    const id = "replay-" + message.number;
    if (!document.getElementById(id)) {
      const element = document.createElement("script");
      element.type = message.replay.type;
      element.id = id;
      element.textContent = message.replay.text;
      document.body.appendChild(element);
    }
    const game = await ArenaView.load(id, 0);
    if (overNumber !== message.number) return;
    try {
      viewer = new Viewer(root, game, {you: welcome.seat});
      viewer.key("last");
      window.arenaViewer = viewer;
    } catch (error) {
      if (!(error instanceof ReplayError)) throw error;
      showReplayError(root, game, error, null);
    }
    document.body.dataset.replay = String(message.number);
  }

  const ordinal = (n) => n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");

  connect();
})();
