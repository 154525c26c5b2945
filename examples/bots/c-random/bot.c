/* c-random: a pirate-arena bot (protocol v1.0, protocol/SPEC.md) that plays a random legal
 * action in every decision. stdin/stdout carry frames, stderr is the log.
 * Randomness: SplitMix64 seeded with start.bot_seed, as in the JS, Rust and Go kits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msgpack_lite.h"

#define MAX_FRAME (64u << 20)

static const char *const GAMES[] = {"dead-mans-draw", "opito-bay", "karibik"};
enum { GAME_COUNT = sizeof GAMES / sizeof GAMES[0] };

static uint64_t rng_state;
static char game[64];  /* the current game's id, from start */

static uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void send_hello(void) {
    mp_buf out = {0};
    mp_write_map(&out, 5);
    mp_write_str(&out, "type");     mp_write_str(&out, "hello");
    mp_write_str(&out, "protocol"); mp_write_str(&out, "1.0");
    mp_write_str(&out, "name");     mp_write_str(&out, "c-random");
    mp_write_str(&out, "version");  mp_write_str(&out, "1.0.0");
    mp_write_str(&out, "games");    mp_write_array(&out, GAME_COUNT);
    for (int k = 0; k < GAME_COUNT; k++) mp_write_str(&out, GAMES[k]);
    mp_write_frame(stdout, &out);
    mp_buf_free(&out);
}

/* A number in [0, n): the next value modulo n. */
static uint64_t below(uint64_t n) { return next_random() % n; }

/* Karibik's bribe (legal is nil): one rum card per ship, Arriba..Fuego, 6 distinct values
 * from -1..5; the card left out is the tie-breaker. Fisher-Yates as in the other kits. */
static void write_bribe(mp_buf *out) {
    int64_t cards[] = {-1, 0, 1, 2, 3, 4, 5};
    for (int i = 6; i > 0; i--) {
        int j = (int)below((uint64_t)i + 1);
        int64_t t = cards[i]; cards[i] = cards[j]; cards[j] = t;
    }
    mp_write_array(out, 6);
    for (int k = 0; k < 6; k++) mp_write_int(out, cards[k]);
}

/* Answer a request: a random element of `legal`, sent back byte for byte, or an action built
 * for a decision the arena does not enumerate. */
static void send_action(const mp_value *request) {
    const mp_value *id = mp_get(request, "id");
    if (!id) return;  /* the arena always sends one */
    const mp_value *legal = mp_get(request, "legal");
    mp_buf out = {0};
    mp_write_map(&out, 3);
    mp_write_str(&out, "type"); mp_write_str(&out, "action");
    mp_write_str(&out, "id");   mp_write_raw(&out, id->raw, id->raw_len);
    mp_write_str(&out, "action");
    if (legal && legal->type == MP_ARRAY && legal->as.array.len > 0) {
        const mp_value *choice = &legal->as.array.items[below(legal->as.array.len)];
        mp_write_raw(&out, choice->raw, choice->raw_len);
    } else if (strcmp(game, "karibik") == 0 && mp_is_str(mp_get(request, "kind"), "bribe")) {
        write_bribe(&out);
    } else {
        const mp_value *kind = mp_get(request, "kind");
        fprintf(stderr, "c-random: no builder for the non-enumerated decision %s/%.*s; answering nil\n", game,
                kind && kind->type == MP_STR ? (int)kind->as.str.len : 1,
                kind && kind->type == MP_STR ? kind->as.str.ptr : "?");
        mp_write_nil(&out);
    }
    mp_write_frame(stdout, &out);
    mp_buf_free(&out);
}

int main(void) {
    size_t len;
    uint8_t *payload;
    while ((payload = mp_read_frame(stdin, &len, MAX_FRAME)) != NULL) {
        mp_value *message = mp_decode(payload, len);
        const mp_value *type = mp_get(message, "type");
        if (!message) {
            fprintf(stderr, "c-random: the arena sent a frame that is not msgpack\n");
        } else if (mp_is_str(type, "hello")) {
            const mp_value *version = mp_get(message, "protocol");
            if (!version || version->type != MP_STR || version->as.str.len < 2
                    || memcmp(version->as.str.ptr, "1.", 2) != 0) {
                fprintf(stderr, "c-random: the arena does not speak protocol 1.x\n");
                return 1;
            }
            send_hello();
        } else if (mp_is_str(type, "start")) {
            const mp_value *name = mp_get(message, "game");
            size_t n = name && name->type == MP_STR && name->as.str.len < sizeof game ? name->as.str.len : 0;
            memcpy(game, n ? name->as.str.ptr : "", n);
            game[n] = '\0';
            rng_state = mp_as_u64(mp_get(message, "bot_seed"));
        } else if (mp_is_str(type, "request")) {
            send_action(message);
        } else if (mp_is_str(type, "bye")) {
            mp_free(message);
            free(payload);
            return 0;
        }  /* "end" and unknown types need no answer */
        mp_free(message);
        free(payload);
    }
    return 0;
}
