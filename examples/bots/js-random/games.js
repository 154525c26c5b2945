// Actions for decisions the arena does not enumerate (request.legal is nil, SPEC.md §12).
// Every other decision of every game is answered from request.legal in bot.js.

// game id -> decision kind -> (observation, rng) -> action
const BUILDERS = {
  // Dead Man's Draw and Opito Bay enumerate every decision: nothing to build.
  karibik: {
    // TODO(karibik): the bribe assigns 6 of the 7 rum cards to the 6 ships and keeps the 7th
    // as tie-breaker. Its action format is fixed by protocol/games/karibik.md, which is not
    // written yet; build a random assignment from the observation once it is.
  },
};

// The games this bot plays completely (announced in its hello).
export const GAMES = ["dead-mans-draw", "opito-bay"];

// A random valid action for a non-enumerated decision, or throws saying what is missing.
export function buildAction(game, kind, observation, rng) {
  const build = BUILDERS[game]?.[kind];
  if (!build) {
    throw new Error(`no builder for the non-enumerated decision ${game}/${kind} (TODO)`);
  }
  return build(observation, rng);
}
