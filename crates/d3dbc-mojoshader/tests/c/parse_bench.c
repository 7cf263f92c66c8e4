/* parse_bench.c: times MOJOSHADER_parse("spirv", ...) + MOJOSHADER_freeParseData over a
 * list of shader files, built twice by benches/parse.rs (against MojoShader and against
 * libd3dbc_mojoshader) so that both libraries run under the same harness.
 *
 * usage: parse_bench check < list      prints 1 or 0 per file: accepted or not
 *        parse_bench ROUNDS < list     prints the best round's nanoseconds per shader */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "mojoshader.h"

typedef struct { unsigned char *buf; unsigned int len; } Blob;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
    char line[4096];
    Blob *blobs = NULL;
    size_t n = 0, cap = 0, i;
    int rounds, r;
    double best = 1e300;
    if (argc < 2)
        return 2;
    while (fgets(line, sizeof line, stdin) != NULL)
    {
        FILE *f;
        long len;
        line[strcspn(line, "\r\n")] = '\0';
        f = fopen(line, "rb");
        if (f == NULL)
            return 3;
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        if (n == cap)
        {
            cap = cap ? cap * 2 : 64;
            blobs = (Blob *) realloc(blobs, cap * sizeof (Blob));
        }
        blobs[n].buf = (unsigned char *) malloc((size_t) len + 1);
        blobs[n].len = (unsigned int) len;
        if (fread(blobs[n].buf, 1, (size_t) len, f) != (size_t) len)
            return 3;
        fclose(f);
        n++;
    }
    if (strcmp(argv[1], "check") == 0)
    {
        /* In a child process each: MojoShader aborts on some shaders. */
        for (i = 0; i < n; i++)
        {
            int status = 0;
            pid_t pid = fork();
            if (pid == 0)
            {
                const MOJOSHADER_parseData *d = MOJOSHADER_parse("spirv", "main",
                    blobs[i].buf, blobs[i].len, NULL, 0, NULL, 0, NULL, NULL, NULL);
                _exit(d->error_count == 0 ? 0 : 1);
            }
            waitpid(pid, &status, 0);
            printf("%d\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 1 : 0);
        }
        return 0;
    }
    rounds = atoi(argv[1]);
    for (r = 0; r < rounds; r++)
    {
        double t0 = now_ns(), t;
        for (i = 0; i < n; i++)
        {
            const MOJOSHADER_parseData *d = MOJOSHADER_parse("spirv", "main", blobs[i].buf,
                blobs[i].len, NULL, 0, NULL, 0, NULL, NULL, NULL);
            MOJOSHADER_freeParseData(d);
        }
        t = now_ns() - t0;
        if (t < best)
            best = t;
    }
    printf("%.1f\n", best / (double) n);
    return 0;
}
