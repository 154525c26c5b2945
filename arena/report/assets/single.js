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
  /* #step=N (or last) [&seat=S]: the position in the URL, so a link opens it. */
  const position = () => {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.has("seat")) {
      const seat = params.get("seat") === "" ? null : Number(params.get("seat"));
      if (seat !== viewer.seat) viewer.setSeat(seat);
    }
    const step = params.get("step");
    if (step === "last") viewer.key("last");
    else if (step !== null) viewer.go(Math.max(0, Math.min(Number(step) || 0, viewer.last)));
  };
  position();
  viewer.onChange = (step, seat) => {
    const hash = `#${seat === null ? "" : "seat=" + seat + "&"}step=${step}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  };
  window.addEventListener("hashchange", position);
  document.addEventListener("keydown", (e) => viewer.handleKey(e));
  document.body.dataset.ready = "1";
})().catch((e) => recordError("error: " + (e && e.stack || e)));
