/* msgpack_lite: see msgpack_lite.h. Spec of the format: the msgpack specification, "Formats". */
#include "msgpack_lite.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

typedef struct { const uint8_t *pos, *end; } reader;

static bool take(reader *r, size_t n, const uint8_t **out) {
    if ((size_t)(r->end - r->pos) < n) return false;
    *out = r->pos;
    r->pos += n;
    return true;
}

static uint64_t big_endian(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) v = (v << 8) | p[k];
    return v;
}

/* Read an n-byte big-endian unsigned integer. */
static bool take_uint(reader *r, size_t n, uint64_t *out) {
    const uint8_t *p;
    if (!take(r, n, &p)) return false;
    *out = big_endian(p, n);
    return true;
}

static bool decode_into(reader *r, mp_value *v, int depth);

static bool decode_items(reader *r, mp_value *v, uint64_t count, int depth) {
    v->as.array.len = (uint32_t)count;
    if (v->type == MP_MAP) count *= 2;
    if (count > (uint64_t)(r->end - r->pos)) return false; /* every value takes >= 1 byte */
    v->as.array.items = count ? calloc(count, sizeof(mp_value)) : NULL;
    if (count && !v->as.array.items) return false;
    for (uint64_t k = 0; k < count; k++)
        if (!decode_into(r, &v->as.array.items[k], depth + 1)) return false;
    return true;
}

static bool decode_bytes(reader *r, mp_value *v, mp_type type, uint64_t len) {
    const uint8_t *p;
    v->type = type;
    if (!take(r, len, &p)) return false;
    v->as.str.ptr = (const char *)p;
    v->as.str.len = (uint32_t)len;
    return true;
}

static void set_int(mp_value *v, uint64_t u) {
    if (u > INT64_MAX) { v->type = MP_UINT; v->as.u = u; }
    else { v->type = MP_INT; v->as.i = (int64_t)u; }
}

static bool decode_into(reader *r, mp_value *v, int depth) {
    const uint8_t *p;
    uint64_t n = 0;
    bool ok = true;
    memset(v, 0, sizeof *v);
    v->raw = r->pos;
    if (depth > MAX_DEPTH || !take(r, 1, &p)) return false;
    uint8_t c = *p;
    if (c <= 0x7f) set_int(v, c);
    else if (c >= 0xe0) { v->type = MP_INT; v->as.i = (int8_t)c; }
    else if (c >= 0xa0 && c <= 0xbf) ok = decode_bytes(r, v, MP_STR, c & 0x1f);
    else if (c >= 0x90 && c <= 0x9f) { v->type = MP_ARRAY; ok = decode_items(r, v, c & 0x0f, depth); }
    else if (c >= 0x80 && c <= 0x8f) { v->type = MP_MAP; ok = decode_items(r, v, c & 0x0f, depth); }
    else switch (c) {
        case 0xc0: v->type = MP_NIL; break;
        case 0xc2: case 0xc3: v->type = MP_BOOL; v->as.b = c == 0xc3; break;
        case 0xcc: case 0xcd: case 0xce: case 0xcf:  /* uint 8/16/32/64 */
            ok = take_uint(r, (size_t)1 << (c - 0xcc), &n);
            set_int(v, n);
            break;
        case 0xd0: case 0xd1: case 0xd2: case 0xd3: {  /* int 8/16/32/64 */
            size_t size = (size_t)1 << (c - 0xd0);
            ok = take_uint(r, size, &n);
            if (size < 8 && (n >> (8 * size - 1))) n |= ~(uint64_t)0 << (8 * size); /* sign-extend */
            v->type = MP_INT;
            v->as.i = (int64_t)n;
            break;
        }
        case 0xca: {
            uint32_t bits;
            float f;
            ok = take_uint(r, 4, &n);
            bits = (uint32_t)n;
            memcpy(&f, &bits, 4);
            v->type = MP_FLOAT;
            v->as.f = f;
            break;
        }
        case 0xcb:
            ok = take_uint(r, 8, &n);
            v->type = MP_FLOAT;
            memcpy(&v->as.f, &n, 8);
            break;
        case 0xd9: case 0xda: case 0xdb:  /* str 8/16/32 */
            ok = take_uint(r, (size_t)1 << (c - 0xd9), &n) && decode_bytes(r, v, MP_STR, n);
            break;
        case 0xc4: case 0xc5: case 0xc6:  /* bin 8/16/32 */
            ok = take_uint(r, (size_t)1 << (c - 0xc4), &n) && decode_bytes(r, v, MP_BIN, n);
            break;
        case 0xdc: case 0xdd:  /* array 16/32 */
            v->type = MP_ARRAY;
            ok = take_uint(r, c == 0xdc ? 2 : 4, &n) && decode_items(r, v, n, depth);
            break;
        case 0xde: case 0xdf:  /* map 16/32 */
            v->type = MP_MAP;
            ok = take_uint(r, c == 0xde ? 2 : 4, &n) && decode_items(r, v, n, depth);
            break;
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:  /* fixext 1/2/4/8/16 */
            ok = take(r, 1, &p) && decode_bytes(r, v, MP_EXT, (uint64_t)1 << (c - 0xd4));
            break;
        case 0xc7: case 0xc8: case 0xc9:  /* ext 8/16/32 */
            ok = take_uint(r, (size_t)1 << (c - 0xc7), &n) && take(r, 1, &p) && decode_bytes(r, v, MP_EXT, n);
            break;
        default:  /* 0xc1 is never used */
            return false;
    }
    v->raw_len = (size_t)(r->pos - v->raw);
    return ok;
}

static void free_items(mp_value *v) {
    if (v->type != MP_ARRAY && v->type != MP_MAP) return;
    uint64_t count = v->type == MP_MAP ? 2 * (uint64_t)v->as.array.len : v->as.array.len;
    if (!v->as.array.items) return;
    for (uint64_t k = 0; k < count; k++) free_items(&v->as.array.items[k]);
    free(v->as.array.items);
}

mp_value *mp_decode(const uint8_t *data, size_t len) {
    reader r = {data, data + len};
    mp_value *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    if (!decode_into(&r, v, 0) || r.pos != r.end) {
        mp_free(v);
        return NULL;
    }
    return v;
}

void mp_free(mp_value *value) {
    if (!value) return;
    free_items(value);
    free(value);
}

bool mp_is_str(const mp_value *value, const char *text) {
    size_t n = strlen(text);
    return value && value->type == MP_STR && value->as.str.len == n && memcmp(value->as.str.ptr, text, n) == 0;
}

const mp_value *mp_get(const mp_value *map, const char *key) {
    if (!map || map->type != MP_MAP) return NULL;
    for (uint32_t k = 0; k < map->as.array.len; k++)
        if (mp_is_str(&map->as.array.items[2 * k], key)) return &map->as.array.items[2 * k + 1];
    return NULL;
}

uint64_t mp_as_u64(const mp_value *value) {
    if (!value) return 0;
    if (value->type == MP_UINT) return value->as.u;
    if (value->type == MP_INT) return (uint64_t)value->as.i;
    return 0;
}

/* -- writing ------------------------------------------------------------------------------ */

void mp_write_raw(mp_buf *buf, const uint8_t *data, size_t len) {
    if (buf->len + len > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 256;
        while (cap < buf->len + len) cap *= 2;
        uint8_t *grown = realloc(buf->data, cap);
        if (!grown) { perror("msgpack_lite: out of memory"); exit(1); }
        buf->data = grown;
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, data, len);
    buf->len += len;
}

/* One marker byte, then `value` as an n-byte big-endian number. */
static void write_marker(mp_buf *buf, uint8_t marker, uint64_t value, size_t n) {
    uint8_t bytes[9] = {marker};
    for (size_t k = 0; k < n; k++) bytes[1 + k] = (uint8_t)(value >> (8 * (n - 1 - k)));
    mp_write_raw(buf, bytes, 1 + n);
}

void mp_write_nil(mp_buf *buf) { write_marker(buf, 0xc0, 0, 0); }
void mp_write_bool(mp_buf *buf, bool value) { write_marker(buf, value ? 0xc3 : 0xc2, 0, 0); }

void mp_write_uint(mp_buf *buf, uint64_t value) {
    if (value <= 0x7f) write_marker(buf, (uint8_t)value, 0, 0);
    else if (value <= 0xff) write_marker(buf, 0xcc, value, 1);
    else if (value <= 0xffff) write_marker(buf, 0xcd, value, 2);
    else if (value <= 0xffffffffu) write_marker(buf, 0xce, value, 4);
    else write_marker(buf, 0xcf, value, 8);
}

void mp_write_int(mp_buf *buf, int64_t value) {
    if (value >= 0) mp_write_uint(buf, (uint64_t)value);
    else if (value >= -32) write_marker(buf, (uint8_t)value, 0, 0);
    else if (value >= INT8_MIN) write_marker(buf, 0xd0, (uint8_t)value, 1);
    else if (value >= INT16_MIN) write_marker(buf, 0xd1, (uint16_t)value, 2);
    else if (value >= INT32_MIN) write_marker(buf, 0xd2, (uint32_t)value, 4);
    else write_marker(buf, 0xd3, (uint64_t)value, 8);
}

void mp_write_str(mp_buf *buf, const char *text) {
    size_t n = strlen(text);
    if (n <= 31) write_marker(buf, (uint8_t)(0xa0 | n), 0, 0);
    else if (n <= 0xff) write_marker(buf, 0xd9, n, 1);
    else if (n <= 0xffff) write_marker(buf, 0xda, n, 2);
    else write_marker(buf, 0xdb, n, 4);
    mp_write_raw(buf, (const uint8_t *)text, n);
}

void mp_write_array(mp_buf *buf, uint32_t count) {
    if (count <= 15) write_marker(buf, (uint8_t)(0x90 | count), 0, 0);
    else if (count <= 0xffff) write_marker(buf, 0xdc, count, 2);
    else write_marker(buf, 0xdd, count, 4);
}

void mp_write_map(mp_buf *buf, uint32_t count) {
    if (count <= 15) write_marker(buf, (uint8_t)(0x80 | count), 0, 0);
    else if (count <= 0xffff) write_marker(buf, 0xde, count, 2);
    else write_marker(buf, 0xdf, count, 4);
}

void mp_buf_free(mp_buf *buf) {
    free(buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

/* -- frames ------------------------------------------------------------------------------- */

uint8_t *mp_read_frame(FILE *in, size_t *len, size_t max_len) {
    uint8_t header[4];
    if (fread(header, 1, 4, in) != 4) return NULL;
    uint64_t n = big_endian(header, 4);
    if (n > max_len) {
        fprintf(stderr, "msgpack_lite: frame of %llu bytes is over %zu\n", (unsigned long long)n, max_len);
        return NULL;
    }
    uint8_t *payload = malloc(n ? n : 1);
    if (!payload || fread(payload, 1, n, in) != n) {
        free(payload);
        return NULL;
    }
    *len = n;
    return payload;
}

bool mp_write_frame(FILE *out, const mp_buf *buf) {
    uint8_t header[4];
    for (int k = 0; k < 4; k++) header[k] = (uint8_t)(buf->len >> (8 * (3 - k)));
    return fwrite(header, 1, 4, out) == 4 && fwrite(buf->data, 1, buf->len, out) == buf->len
        && fflush(out) == 0;
}
