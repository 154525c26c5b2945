/* Karibik's controls on `arena play`'s page (ArenaControls, see arena/play/assets/play.js): the
   bribe as six number fields, one rum card per ship; sailing on the map: click the moving ship
   (red outline), then a highlighted area, or a highlighted ship to rob, swap with or hand over
   to. The other choices are the page's buttons. */
"use strict";
window.ArenaControls = window.ArenaControls || {};
(function () {
  const SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"];
  const VERBS = ["rob", "exchange", "hand"];
  let selectedShip = false;

  function bribeForm(observation, what) {
    const start = observation.my_bids || [5, 4, 3, 2, 1, 0];
    const fields = SHIPS.map((ship, n) => `<label class="bid"><span>${ship}</span>` +
      `<input type="number" class="bribe" data-ship="${n}" min="-1" max="5" step="1" value="${start[n]}" required></label>`).join("");
    return `<div class="hint">Give each ship one rum card, each card once: −1 (the thief) to 5. The card you leave out is your tie-breaker.</div>` +
      (what ? `<div class="hint does">${what}</div>` : "") +
      `<form class="bribes">${fields}<span class="tb"></span><button type="submit" class="choice send-bribe">Bribe the ships</button></form>`;
  }

  function bribeValues(box) {
    return [...box.querySelectorAll("input.bribe")].map((input) => Number(input.value));
  }

  function bribeProblem(values) {
    if (values.some((v) => !Number.isInteger(v) || v < -1 || v > 5)) return "each card is a whole number from −1 to 5";
    const twice = values.find((v, i) => values.indexOf(v) !== i);
    if (twice !== undefined) return `each card can go to one ship only; ${twice} is used twice`;
    return null;
  }

  ArenaControls["karibik"] = {
    form(decision, observation, ctx, page) {
      selectedShip = false;  // a new decision: no ship selected yet
      if (decision.kind !== "bribe") return null;
      return bribeForm(observation, page.yours(ArenaText.explain("bribe", null, ctx, observation, page.seat), true));
    },

    wire(box, decision, observation, page) {
      const form = box.querySelector("form.bribes");
      if (!form) return;
      const update = () => {
        const values = bribeValues(box);
        const problem = bribeProblem(values);
        const left = [-1, 0, 1, 2, 3, 4, 5].filter((v) => !values.includes(v));
        box.querySelector(".tb").innerHTML = problem ? `<span class="bad">${ArenaText.esc(problem)}</span>` :
          `tie-breaker: <b>${left.length === 1 ? left[0] : "?"}</b>`;
        box.querySelector(".send-bribe").disabled = !!problem;
      };
      form.addEventListener("input", update);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const values = bribeValues(box);
        if (bribeProblem(values)) return;
        page.answer(decision, {type: "act", decision: decision.id, action: values});
      });
      update();
    },

    /* sailing is done on the map: the moves are no buttons */
    choices(decision, observation) {
      if (decision.kind !== "move") return null;
      const all = decision.legal.map((_, i) => i);
      const sails = all.filter((i) => decision.legal[i][0] === "move");
      const indices = all.filter((i) => decision.legal[i][0] !== "move");
      const hint = `<div class="hint">${sails.length ? `To sail, click <b>${SHIPS[observation.ship]}</b> (red outline) on the map, then one of the highlighted areas. ` : ""}` +
        `${indices.some((i) => VERBS.includes(decision.legal[i][0])) ? "With the ship selected you may also click a highlighted ship to rob, swap or hand over. " : ""}</div>`;
      return {indices, hint};
    },

    /* The moving ship and, once it is clicked, the areas it may sail to and the ships it may
       rob, swap with or hand over to, marked on the map and clickable. */
    board(decision, observation, page) {
      const map = document.querySelector("#board svg.kmap");
      if (!map) return;
      map.querySelectorAll(".mine, .target, .selected").forEach((g) => g.classList.remove("mine", "target", "selected"));
      if (!decision || decision.kind !== "move") return;
      const ship = map.querySelector(`g[data-ship="${observation.ship}"]`);
      if (!ship) return;
      ship.classList.add("mine");
      if (selectedShip) ship.classList.add("selected");
      if (!ship.dataset.wired) {
        ship.dataset.wired = "1";
        ship.addEventListener("click", () => {
          const current = page.current();
          if (!current || !current.decision || current.decision.kind !== "move") return;
          selectedShip = !selectedShip;
          ArenaControls["karibik"].board(current.decision, current.observation, page);
        });
      }
      if (!selectedShip) return;
      decision.legal.forEach((action, index) => {
        let target = null;
        if (action[0] === "move") target = map.querySelector(`g[data-area="${action[1]}"]`);
        else if (VERBS.includes(action[0])) target = map.querySelector(`g[data-ship="${action[1]}"]`);
        if (!target) return;
        target.classList.add("target");
        target.dataset.choice = String(index);
        if (!target.dataset.wired) {
          target.dataset.wired = "1";
          target.addEventListener("click", (event) => {
            event.stopPropagation();
            const current = page.current();
            const open = current && current.decision;
            if (!open || open.kind !== "move" || !selectedShip || !target.classList.contains("target")) return;
            page.choose(open, Number(target.dataset.choice));
          });
        }
      });
    },
  };
})();
