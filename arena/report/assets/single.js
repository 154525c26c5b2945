/* The single-game page of `arena view`: open the one embedded game. */
"use strict";
(async () => {
  const info = JSON.parse(document.getElementById("viewer-data").textContent);
  const root = document.getElementById("viewer");
  root.hidden = false;
  const heading = document.createElement("h1");
  heading.textContent = info.title;
  document.body.insertBefore(heading, root);
  const game = await ArenaView.load("c0", 0);
  let viewer;
  try {
    viewer = new Viewer(root, game, {});
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    showReplayError(root, game, error, null);
    document.body.dataset.ready = "1";
    return;
  }
  window.arenaViewer = viewer;
  document.addEventListener("keydown", (e) => viewer.handleKey(e));
  document.body.dataset.ready = "1";
})().catch((e) => recordError("error: " + (e && e.stack || e)));
