// java-random: a pirate-arena bot (protocol v1.0, protocol/SPEC.md) that plays a random legal
// action in every decision. stdin/stdout carry frames, stderr is the log.
// Randomness: SplitMix64 seeded with start.bot_seed, as in the JS, C, Rust and Go kits.
// Framing and msgpack: Frames.java, with Debian's libmsgpack-java (msgpack-core).

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Bot {
    static final List<String> GAMES = Arrays.asList("dead-mans-draw", "opito-bay", "karibik");

    /** SplitMix64, the generator every kit shares (same seed, same choices). */
    static final class SplitMix64 {
        private long state;

        SplitMix64(long seed) {
            state = seed;
        }

        long next() {
            state += 0x9e3779b97f4a7c15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }

        /** A number in [0, n): the next value, unsigned, modulo n. */
        int below(int n) {
            return (int) Long.remainderUnsigned(next(), n);
        }

        /** Fisher-Yates, last index first, as in the other kits. */
        void shuffle(List<Object> items) {
            for (int i = items.size() - 1; i > 0; i--) {
                int j = below(i + 1);
                Object swap = items.get(i);
                items.set(i, items.get(j));
                items.set(j, swap);
            }
        }
    }

    /** A uint64 from the wire (a Long, or a BigInteger above 2^63) as its 64 bits. */
    static long asUint64(Object value) {
        if (value instanceof BigInteger) {
            return ((BigInteger) value).longValue();
        }
        return value instanceof Long ? (Long) value : 0L;
    }

    /** An action for a decision the arena does not enumerate (legal is nil), or null. */
    static Object buildAction(String game, String kind, SplitMix64 rng) {
        if ("karibik".equals(game) && "bribe".equals(kind)) {
            // One rum card per ship, Arriba..Fuego: 6 distinct values from -1..5; the card left
            // out is the tie-breaker. Every round a player holds all 7 cards again.
            List<Object> cards = new ArrayList<>(Arrays.asList(-1L, 0L, 1L, 2L, 3L, 4L, 5L));
            rng.shuffle(cards);
            return new ArrayList<>(cards.subList(0, 6));
        }
        System.err.println("java-random: no builder for the non-enumerated decision " + game + "/" + kind);
        return null;
    }

    static Object decide(Map<String, Object> request, String game, SplitMix64 rng) {
        Object legal = request.get("legal");
        if (legal instanceof List && !((List<?>) legal).isEmpty()) {
            List<?> actions = (List<?>) legal;
            return actions.get(rng.below(actions.size()));
        }
        return buildAction(game, (String) request.get("kind"), rng);
    }

    public static void main(String[] args) throws IOException {
        BufferedInputStream in = new BufferedInputStream(System.in);
        BufferedOutputStream out = new BufferedOutputStream(System.out);
        String game = "";
        SplitMix64 rng = new SplitMix64(0);
        while (true) {
            Map<String, Object> message = Frames.read(in);
            if (message == null) {
                return; // end of input means the same as bye
            }
            Object type = message.get("type");
            Map<String, Object> reply = null;
            if ("hello".equals(type)) {
                String version = String.valueOf(message.get("protocol"));
                if (!version.startsWith("1.")) {
                    System.err.println("java-random: the arena speaks protocol " + version + "; this bot speaks 1.x");
                    System.exit(1);
                }
                reply = new LinkedHashMap<>();
                reply.put("type", "hello");
                reply.put("protocol", "1.0");
                reply.put("name", "java-random");
                reply.put("version", "1.0.0");
                reply.put("games", GAMES);
            } else if ("start".equals(type)) {
                game = String.valueOf(message.get("game"));
                rng = new SplitMix64(asUint64(message.get("bot_seed")));
            } else if ("request".equals(type)) {
                reply = new LinkedHashMap<>();
                reply.put("type", "action");
                reply.put("id", message.get("id"));
                reply.put("action", decide(message, game, rng));
            } else if ("bye".equals(type)) {
                return;
            } // "end" and unknown types need no answer
            if (reply != null) {
                Frames.write(out, reply);
            }
        }
    }
}
