/* A bot that makes one of the mistakes a new author makes, for the check-bot tests.
 * Usage: author_bot MODE. It bids when it may and answers the first legal action, except:
 *   debug      prints a debug line on stdout before its reply in the play
 *   lowercase  sends the first legal action in lower case
 *   move       names the key "move" instead of "action"
 *   ownid      counts the ids itself (1, 2, 3...) instead of copying them
 *   exit0      exits with status 0 after the first game_over
 *   slowfirst  sleeps past the deadline at its first request of each game
 *   crash2     dereferences a null pointer at its third request of its second game (SIGSEGV)
 *   nonewline  sends its replies without the newline (flushed)
 *   hellodebug prints a debug line on stdout before its hello
 *   buffered   flushes its hello but never its replies (stdio's pipe buffer sends them at exit)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char line[1 << 17];

static int first_legal(const char *text, char *out, size_t size) {
    const char *legal = strstr(text, "\"legal\":[\"");
    if (legal == NULL) legal = strstr(text, "\"legal\": [\"");
    if (legal == NULL) return 0;
    legal = strchr(legal, '[') + 2;
    const char *bid = strstr(legal, "\"bid "), *close = strchr(legal, ']');
    if (bid != NULL && bid < close) legal = bid + 1;
    const char *end = strchr(legal, '"');
    size_t n = (size_t)(end - legal) < size - 1 ? (size_t)(end - legal) : size - 1;
    memcpy(out, legal, n);
    out[n] = 0;
    return 1;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int games = 0, requests = 0, counted = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"hello\"") || strstr(line, "\"type\": \"hello\"")) {
            if (strcmp(mode, "hellodebug") == 0) printf("debug: loading the model\n");
            printf("{\"type\":\"hello\",\"name\":\"author-%s\",\"version\":\"1\",\"protocol\":\"rook/1\"}\n", mode);
            fflush(stdout);
        } else if (strstr(line, "\"type\":\"game\"") || strstr(line, "\"type\": \"game\"")) {
            games++;
            requests = 0;
        } else if (strstr(line, "\"type\":\"game_over\"") || strstr(line, "\"type\": \"game_over\"")) {
            if (strcmp(mode, "exit0") == 0) return 0;
        } else if (strstr(line, "\"type\":\"bye\"") || strstr(line, "\"type\": \"bye\"")) {
            return 0;
        } else if (strstr(line, "\"type\":\"act\"") || strstr(line, "\"type\": \"act\"")) {
            char action[64];
            long long id = atoll(strstr(line, "\"id\":") + 5);
            requests++;
            counted++;
            if (!first_legal(line, action, sizeof action)) return 2;
            if (strcmp(mode, "slowfirst") == 0 && requests == 1) usleep(1500 * 1000);
            if (strcmp(mode, "crash2") == 0 && games == 2 && requests == 3) {
                fprintf(stderr, "about to fail\n");
                int *nothing = NULL;
                return *nothing;
            }
            if (strcmp(mode, "debug") == 0 && strncmp(action, "play", 4) == 0) printf("debug: I play %s\n", action + 5);
            if (strcmp(mode, "lowercase") == 0)
                for (char *c = action; *c; c++) *c = (char)tolower((unsigned char)*c);
            if (strcmp(mode, "ownid") == 0) id = counted;
            const char *key = strcmp(mode, "move") == 0 ? "move" : "action";
            printf("{\"id\":%lld,\"%s\":\"%s\"}%s", id, key, action, strcmp(mode, "nonewline") == 0 ? "" : "\n");
            if (strcmp(mode, "nulbyte") == 0) fputc('\0', stdout); /* as write(1, s, strlen(s) + 1) would */
            if (strcmp(mode, "buffered") != 0) fflush(stdout);
        }
    }
    return 0;
}
