// js-random: a pirate-arena bot (protocol v1.0) that plays a random legal action in every game.
// Run by the arena as `node bot.js`; stdin/stdout carry frames, stderr is the log.
import { readMessages, writeMessage } from "./protocol.js";
import { SplitMix64 } from "./random.js";
import { GAMES, buildAction } from "./games.js";

const log = (...parts) => process.stderr.write(`js-random: ${parts.join(" ")}\n`);

let game = null; // the current game's start message
let rng = new SplitMix64(0n);

function decide(request) {
  if (request.legal !== null && request.legal !== undefined) {
    return request.legal[rng.below(request.legal.length)];
  }
  return buildAction(game.game, request.kind, request.observation, rng);
}

for await (const message of readMessages(process.stdin)) {
  switch (message.type) {
    case "hello":
      if (!String(message.protocol).startsWith("1.")) {
        log(`the arena speaks protocol ${message.protocol}; this bot speaks 1.x`);
        process.exit(1);
      }
      writeMessage(process.stdout, {
        type: "hello", protocol: "1.0", name: "js-random", version: "1.0.0", games: GAMES,
      });
      break;
    case "start":
      game = message;
      rng = new SplitMix64(message.bot_seed ?? 0n);
      if (!GAMES.includes(message.game)) log(`asked to play ${message.game}, which is not in my hello`);
      break;
    case "request": {
      let action = null;
      try {
        action = decide(message);
      } catch (error) {
        log(`request ${message.id}: ${error.message}; answering nil`);
      }
      writeMessage(process.stdout, { type: "action", id: message.id, action });
      break;
    }
    case "end":
      log(`${game?.game} over: ranks ${message.ranks.join(",")}, reason ${message.reason}`);
      break;
    case "bye":
      process.exit(0);
    default:
      break; // unknown types are informational (SPEC.md §14)
  }
}
process.exit(0);
