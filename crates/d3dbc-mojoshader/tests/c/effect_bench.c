/* effect_bench.c: times MOJOSHADER_effectCommitChanges — what FNA3D calls before every
 * draw of an effect pass — over a list of effect files, built twice by
 * benches/effect.rs (against MojoShader and against libd3dbc_mojoshader) so that both
 * libraries run under the same harness.
 *
 * Every effect is compiled once (shaders through MOJOSHADER_parse "bytecode", by
 * effect_context.h as in effect_dump.c). A round runs, for every effect, technique and pass: Begin, BeginPass,
 * then COMMITS times a new value of the first float parameter followed by
 * CommitChanges (timed together, in thread CPU time), then EndPass and End.
 *
 * usage: effect_bench check < list      prints 1 or 0 per file: compiled with passes
 *        effect_bench ROUNDS < list     prints the best round's nanoseconds per
 *                                       SetRawValueHandle + CommitChanges, then the
 *                                       calls per round */
#define _POSIX_C_SOURCE 200809L
#ifndef MOJOSHADER_EFFECT_SUPPORT
#define MOJOSHADER_EFFECT_SUPPORT 1
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "mojoshader.h"
#include "effect_context.h"

#define COMMITS 8

static void *bound_vs = NULL;
static void *bound_ps = NULL;

static void MOJOSHADERCALL bind_shaders(const void *ctx, void *vs, void *ps)
{
    (void) ctx;
    bound_vs = vs;
    bound_ps = ps;
}

static void MOJOSHADERCALL get_bound(const void *ctx, void **vs, void **ps)
{
    (void) ctx;
    *vs = bound_vs;
    *ps = bound_ps;
}

static MOJOSHADER_effect *compile(const unsigned char *buf, unsigned int len)
{
    MOJOSHADER_effectShaderContext ctx;
    MOJOSHADER_effect *e;
    shader_context(&ctx, bind_shaders, get_bound);
    e = MOJOSHADER_compileEffect(buf, len, NULL, 0, NULL, 0, &ctx);
    if (e == NULL)
        return NULL;
    if (e->error_count > 0 || e->technique_count <= 0)
    {
        MOJOSHADER_deleteEffect(e);
        return NULL;
    }
    return e;
}

/* The first float parameter (a value FNA sets before drawing), or -1. */
static int float_param(const MOJOSHADER_effect *e)
{
    int i;
    for (i = 0; i < e->param_count; i++)
    {
        const MOJOSHADER_effectValue *v = &e->params[i].value;
        if (v->type.parameter_type == MOJOSHADER_SYMTYPE_FLOAT && v->value_count > 0)
            return i;
    }
    return -1;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
    char line[4096];
    MOJOSHADER_effect **effects = NULL;
    int *params = NULL;
    size_t n = 0, cap = 0, i;
    int rounds, r;
    long calls = 0;
    double best = 1e300;
    int check;
    if (argc < 2)
        return 2;
    check = strcmp(argv[1], "check") == 0;
    while (fgets(line, sizeof line, stdin) != NULL)
    {
        FILE *f;
        long len;
        unsigned char *buf;
        line[strcspn(line, "\r\n")] = '\0';
        f = fopen(line, "rb");
        if (f == NULL)
            return 3;
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = (unsigned char *) malloc((size_t) len + 1);
        if (fread(buf, 1, (size_t) len, f) != (size_t) len)
            return 3;
        fclose(f);
        if (check)
        {
            /* In a child process each: MojoShader aborts on some effects. */
            int status = 0;
            pid_t pid = fork();
            if (pid == 0)
                _exit(compile(buf, (unsigned int) len) != NULL ? 0 : 1);
            waitpid(pid, &status, 0);
            printf("%d\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 1 : 0);
            free(buf);
            continue;
        }
        if (n == cap)
        {
            cap = cap ? cap * 2 : 64;
            effects = (MOJOSHADER_effect **) realloc(effects, cap * sizeof (*effects));
            params = (int *) realloc(params, cap * sizeof (*params));
        }
        effects[n] = compile(buf, (unsigned int) len);
        free(buf);
        if (effects[n] == NULL)
            return 4;
        params[n] = float_param(effects[n]);
        n++;
    }
    if (check)
        return 0;
    rounds = atoi(argv[1]);
    for (r = 0; r < rounds; r++)
    {
        double spent = 0.0;
        long round_calls = 0;
        for (i = 0; i < n; i++)
        {
            MOJOSHADER_effect *e = effects[i];
            int t;
            for (t = 0; t < e->technique_count; t++)
            {
                unsigned int passes = 0, p;
                MOJOSHADER_effectStateChanges changes;
                MOJOSHADER_effectSetTechnique(e, &e->techniques[t]);
                MOJOSHADER_effectBegin(e, &passes, 0, &changes);
                for (p = 0; p < passes; p++)
                {
                    int k;
                    double t0;
                    MOJOSHADER_effectBeginPass(e, p);
                    t0 = cpu_ns();
                    for (k = 0; k < COMMITS; k++)
                    {
                        if (params[i] >= 0)
                        {
                            float v = (float) (k + r);
                            MOJOSHADER_effectSetRawValueHandle(&e->params[params[i]], &v, 0, 4);
                        }
                        MOJOSHADER_effectCommitChanges(e);
                    }
                    spent += cpu_ns() - t0;
                    round_calls += COMMITS;
                    MOJOSHADER_effectEndPass(e);
                }
                MOJOSHADER_effectEnd(e);
            }
        }
        calls = round_calls;
        if (round_calls > 0 && spent / (double) round_calls < best)
            best = spent / (double) round_calls;
    }
    printf("%.1f %ld\n", best, calls);
    for (i = 0; i < n; i++)
        MOJOSHADER_deleteEffect(effects[i]);
    free(effects);
    free(params);
    return 0;
}
