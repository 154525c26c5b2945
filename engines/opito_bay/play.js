/* Opito Bay's controls on `arena play`'s page (ArenaControls, see arena/play/assets/play.js):
   the Spyglass's cards as a list to put back in order (▲ moves a card up). The other choices
   are the page's buttons. */
"use strict";
window.ArenaControls = window.ArenaControls || {};
(function () {
  function spyItem(card, i, page) {
    return `<li data-card="${ArenaText.esc(card)}">` +
      `${ArenaText.action("discard", card, page.ctxFor(page.current().observation), null, page.seat, true)}` +
      `${i ? ' <button type="button" class="up" title="move up">▲</button>' : ""}</li>`;
  }

  ArenaControls["opito-bay"] = {
    form(decision, observation, ctx, page) {
      if (decision.kind !== "spyglass") return null;
      return `<div class="hint">Put the cards back on the library in the order you want, top first: ▲ moves a card up.</div>` +
        `<ol class="spyglass">${observation.looking.map((c, i) => spyItem(c, i, page)).join("")}</ol>` +
        `<button type="button" class="choice send-order">Put them back in this order</button>`;
    },

    wire(box, decision, observation, page) {
      const list = box.querySelector("ol.spyglass");
      if (!list) return;
      list.addEventListener("click", (event) => {
        const up = event.target.closest && event.target.closest("button.up");
        if (!up) return;
        const item = up.closest("li");
        item.parentNode.insertBefore(item, item.previousElementSibling);
        const cards = [...list.children].map((li) => li.dataset.card);
        list.innerHTML = cards.map((c, i) => spyItem(c, i, page)).join("");
      });
      box.querySelector(".send-order").addEventListener("click", () => {
        const order = [...list.children].map((li) => li.dataset.card);
        const index = decision.legal.findIndex((a) => JSON.stringify(a) === JSON.stringify(order));
        if (index >= 0) page.choose(decision, index);
      });
    },
  };
})();
