// Actions for decisions the arena does not enumerate (request.legal is nil, SPEC.md §12).
// Every other decision of every game is answered from request.legal in bot.js.

const RUM_CARDS = [-1, 0, 1, 2, 3, 4, 5];
const SHIPS = 6;

// game id -> decision kind -> (observation, rng) -> action
const BUILDERS = {
  // Dead Man's Draw and Opito Bay enumerate every decision: nothing to build.
  karibik: {
    // One rum card per ship, Arriba..Fuego: 6 distinct values from -1..5; the card left out
    // is the tie-breaker. Every round a player holds all 7 cards again.
    bribe: (observation, rng) => rng.shuffle([...RUM_CARDS]).slice(0, SHIPS),
  },
};

// The games this bot plays completely (announced in its hello).
export const GAMES = ["dead-mans-draw", "opito-bay", "karibik"];

// A random valid action for a non-enumerated decision, or throws saying what is missing.
export function buildAction(game, kind, observation, rng) {
  const build = BUILDERS[game]?.[kind];
  if (!build) {
    throw new Error(`no builder for the non-enumerated decision ${game}/${kind}`);
  }
  return build(observation, rng);
}
