/* The drawing of a game whose engine has no viewer.js of its own (see renderer_script in
   arena/report/_page.py): each view as its JSON. Its words fall back to JSON too (describe.js). */
"use strict";
window.ArenaRenderers = window.ArenaRenderers || {};
ArenaRenderers[GAME_ID] = function (view) {
  const text = JSON.stringify(view, null, 1).replace(/[&<>"']/g,
    (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  return `<pre class="plain-view">${text}</pre>`;
};
