/* Raw ping-pong between two C processes over blocking pipes: the parent writes each request
 * frame (read from a file of frames), the child reads it whole and writes back a reply frame of
 * the given size. Prints round-trip times in nanoseconds, one per line.
 * usage: pingpong FRAMES_FILE ROUNDS REPLY_BYTES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static void must(int ok) { if (!ok) { perror("pingpong"); exit(1); } }
static void read_all(int fd, char *buf, size_t n) {
    while (n) { ssize_t r = read(fd, buf, n); must(r > 0); buf += r; n -= (size_t)r; }
}
static void write_all(int fd, const char *buf, size_t n) {
    while (n) { ssize_t w = write(fd, buf, n); must(w > 0); buf += w; n -= (size_t)w; }
}
static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    FILE *f = fopen(argv[1], "rb"); must(f != NULL);
    fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
    char *frames = malloc((size_t)size); must(fread(frames, 1, (size_t)size, f) == (size_t)size);
    long rounds = atol(argv[2]); size_t reply = (size_t)atol(argv[3]);
    int down[2], up[2]; must(pipe(down) == 0 && pipe(up) == 0);
    char *buf = malloc(1 << 22);
    pid_t child = fork();
    if (child == 0) {
        close(down[1]); close(up[0]);  /* or the child never sees end of file */
        unsigned char header[4];
        char *answer = calloc(reply + 4, 1);
        answer[0] = (char)(reply >> 24); answer[1] = (char)(reply >> 16); answer[2] = (char)(reply >> 8); answer[3] = (char)reply;
        for (;;) {
            ssize_t r = read(down[0], header, 4);
            if (r <= 0) return 0;
            if (r < 4) read_all(down[0], (char *)header + r, 4 - (size_t)r);
            read_all(down[0], buf, be32(header));
            write_all(up[1], answer, reply + 4);
        }
    }
    close(down[0]); close(up[1]);
    long offset = 0;
    struct timespec a, b;
    for (long i = 0; i < rounds; i++) {
        uint32_t n = be32((unsigned char *)frames + offset);
        clock_gettime(CLOCK_MONOTONIC, &a);
        write_all(down[1], frames + offset, n + 4);
        unsigned char header[4];
        read_all(up[0], (char *)header, 4);
        read_all(up[0], buf, be32(header));
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%ld\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
        offset += n + 4; if (offset >= size) offset = 0;
    }
    close(down[1]); waitpid(child, NULL, 0);
    return 0;
}
