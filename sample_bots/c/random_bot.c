/*
 * A random rook/1 bot in C (C99 and its standard library only): copy this file to start your own bot.
 *
 * Build: cc -O2 -o random_bot random_bot.c      Run: ./random_bot [NAME]
 *
 * It reads one JSON object per line on stdin and writes one per line on stdout (flushed after every
 * line: stdout is block-buffered when it is a pipe). Logs go to stderr. Its hello declines the view
 * ("view":false), so every request is only {"type":"act",...,"legal":[...],"id":N}: no JSON library
 * is needed, just the small reader below. In the auction it passes or makes the lowest bid with equal
 * chance; otherwise it plays a random legal action. Its random numbers are reseeded from each game's
 * "seed", so a league replays exactly. Only choose() needs changing to make it smarter.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEGAL 128
#define MAX_ACTION 32

static uint64_t rng_state = 1;

/* splitmix64: a small, good generator; the same numbers on every machine. */
static uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One line of any length, without its newline; NULL at end of input. The caller frees it. */
static char *read_line(void) {
    size_t size = 4096, used = 0;
    char *line = malloc(size);
    int c;
    if (line == NULL) return NULL;
    while ((c = getchar()) != EOF && c != '\n') {
        if (used + 1 >= size) {
            char *bigger = realloc(line, size *= 2);
            if (bigger == NULL) { free(line); return NULL; }
            line = bigger;
        }
        line[used++] = (char)c;
    }
    if (c == EOF && used == 0) { free(line); return NULL; }
    if (used > 0 && line[used - 1] == '\r') used--;
    line[used] = '\0';
    return line;
}

/* Where the value of a top-level KEY starts in a one-line JSON object, or NULL. */
static const char *value_of(const char *line, const char *key) {
    size_t length = strlen(key);
    int depth = 0;
    for (const char *p = line; *p; p++) {
        if (*p == '"') {
            const char *start = ++p;
            while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
            if (!*p) return NULL;
            const char *after = p + 1;
            while (*after == ' ') after++;
            if (depth == 1 && *after == ':' && (size_t)(p - start) == length && strncmp(start, key, length) == 0) {
                after++;
                while (*after == ' ') after++;
                return after;
            }
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        }
    }
    return NULL;
}

/* The strings of the array at VALUE (action strings hold no escapes); returns how many. */
static int read_strings(const char *value, char out[][MAX_ACTION], int most) {
    int count = 0;
    if (value == NULL || *value != '[') return 0;
    for (const char *p = value + 1; *p && *p != ']' && count < most; p++) {
        if (*p == '"') {
            const char *end = strchr(p + 1, '"');
            size_t n = end ? (size_t)(end - p - 1) : 0;
            if (end == NULL || n >= MAX_ACTION) break;
            memcpy(out[count], p + 1, n);
            out[count++][n] = '\0';
            p = end;
        }
    }
    return count;
}

/* One of the legal actions. In the auction: pass or the lowest bid, with equal chance. */
static const char *choose(char legal[][MAX_ACTION], int count) {
    if (strcmp(legal[0], "pass") == 0 || strncmp(legal[0], "bid ", 4) == 0) {
        const char *lowest = NULL;
        int has_pass = 0;
        for (int i = 0; i < count; i++) {
            if (strcmp(legal[i], "pass") == 0) has_pass = 1;
            else if (lowest == NULL || atoi(legal[i] + 4) < atoi(lowest + 4)) lowest = legal[i];
        }
        if (lowest != NULL && (!has_pass || next_random() % 2 == 0)) return lowest;
        return "pass";
    }
    return legal[next_random() % (uint64_t)count]; /* a discard, a trump colour or a card to play */
}

static int is_type(const char *line, const char *type) {
    const char *value = value_of(line, "type");
    size_t n = strlen(type);
    return value != NULL && value[0] == '"' && strncmp(value + 1, type, n) == 0 && value[n + 1] == '"';
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "random-c";
    static char legal[MAX_LEGAL][MAX_ACTION];
    char *line;
    while ((line = read_line()) != NULL) {
        if (is_type(line, "hello")) {
            printf("{\"type\":\"hello\",\"name\":\"%s\",\"version\":\"1.0\",\"protocol\":\"rook/1\",\"view\":false}\n", name);
            fflush(stdout); /* nothing reaches the referee until it is flushed */
        } else if (is_type(line, "game")) {
            const char *seed = value_of(line, "seed");
            rng_state = seed ? strtoull(seed, NULL, 10) : 0; /* this game's choices: from its seed */
        } else if (is_type(line, "act")) {
            const char *id = value_of(line, "id");
            int count = read_strings(value_of(line, "legal"), legal, MAX_LEGAL);
            if (id != NULL && count > 0) {
                printf("{\"id\":%lld,\"action\":\"%s\"}\n", strtoll(id, NULL, 10), choose(legal, count));
                fflush(stdout);
            } else {
                fprintf(stderr, "cannot read the request: %s\n", line);
            }
        } else if (is_type(line, "bye")) {
            free(line);
            return 0;
        }
        /* Everything else ("deal", "played", "trick", ...) is news that needs no reply. */
        free(line);
    }
    return 0; /* end of input: the referee has gone */
}
