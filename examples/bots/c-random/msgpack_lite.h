/* msgpack_lite: a small, self-contained msgpack reader and writer for pirate-arena bots.
 *
 * Reading: mp_decode() turns one frame payload into a tree of mp_value. Strings are not
 * copied: they point into the payload, which must outlive the tree. Every value also keeps
 * its own raw bytes (raw, raw_len), so an element of `legal` can be sent back byte for byte.
 * Writing: append values to an mp_buf, then send it as a frame with mp_write_frame().
 * Frames: a 4-byte big-endian length, then the payload (protocol/SPEC.md section 3).
 */
#ifndef MSGPACK_LITE_H
#define MSGPACK_LITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    MP_NIL, MP_BOOL, MP_INT, MP_UINT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP, MP_EXT
} mp_type;

typedef struct mp_value mp_value;
struct mp_value {
    mp_type type;
    const uint8_t *raw;  /* this value's encoding inside the payload */
    size_t raw_len;
    union {
        bool b;
        int64_t i;       /* MP_INT: every integer that fits in int64 */
        uint64_t u;      /* MP_UINT: only integers above INT64_MAX (e.g. a large bot_seed) */
        double f;
        struct { const char *ptr; uint32_t len; } str;  /* MP_STR, MP_BIN, MP_EXT data */
        struct { mp_value *items; uint32_t len; } array; /* MP_MAP: items = key0, value0, ... */
    } as;
};

/* Decode exactly one value filling the whole payload; NULL on bad or trailing bytes. */
mp_value *mp_decode(const uint8_t *data, size_t len);
void mp_free(mp_value *value);

/* The value of `key` in a map with string keys, or NULL (also when `map` is not a map). */
const mp_value *mp_get(const mp_value *map, const char *key);
bool mp_is_str(const mp_value *value, const char *text);
/* An integer as uint64 (a negative one wraps), for seeds and ids; 0 for non-integers. */
uint64_t mp_as_u64(const mp_value *value);

typedef struct { uint8_t *data; size_t len, cap; } mp_buf;

void mp_write_nil(mp_buf *buf);
void mp_write_bool(mp_buf *buf, bool value);
void mp_write_int(mp_buf *buf, int64_t value);
void mp_write_uint(mp_buf *buf, uint64_t value);
void mp_write_str(mp_buf *buf, const char *text);
void mp_write_array(mp_buf *buf, uint32_t count);  /* then write `count` values */
void mp_write_map(mp_buf *buf, uint32_t count);    /* then write `count` key, value pairs */
void mp_write_raw(mp_buf *buf, const uint8_t *data, size_t len);  /* an already encoded value */
void mp_buf_free(mp_buf *buf);

/* Read one frame's payload (malloc'ed, *len set); NULL at end of input or on a short read. */
uint8_t *mp_read_frame(FILE *in, size_t *len, size_t max_len);
/* Write the header and the buffer, then flush; false on a write error. */
bool mp_write_frame(FILE *out, const mp_buf *buf);

#endif
