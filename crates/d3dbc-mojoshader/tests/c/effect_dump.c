/*
 * effect_dump: a program written for MojoShader's effect API, built twice by
 * tests/mojoshader_effects.rs (against MojoShader 6333f74 and against
 * libd3dbc_mojoshader) and run on one effect file per process:
 *
 *   effect_dump EFFECT.fxo
 *
 * It compiles the effect with MOJOSHADER_compileEffect through a small shader context
 * (compileShader = MOJOSHADER_parse with the "bytecode" profile; bindShaders and
 * getBoundShaders keep the bound pair; mapUniformBufferMemory hands out register files
 * filled with a marker before every call), prints the effect's tables (params with
 * values and annotations, techniques, passes, states, objects), then runs every
 * technique: Begin, each pass's BeginPass (the bound shaders, the state changes and the
 * uniforms written), a CommitChanges after SetRawValueName gave every numeric parameter
 * new values, EndPass, End. Then cloneEffect (the clone's values printed again) and
 * deleteEffect of both; "leak" counts blocks of the context's allocator not freed.
 *
 * Each line is "FIELD REST"; the test compares the two builds' lines field by field.
 */
#ifndef MOJOSHADER_EFFECT_SUPPORT
#define MOJOSHADER_EFFECT_SUPPORT 1
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mojoshader.h"
#include "effect_context.h"

static void *bound_vs = NULL;
static void *bound_ps = NULL;

static const unsigned int MARK = 0x7F7F7F7Fu;
static long live_blocks = 0;

static void *MOJOSHADERCALL counting_malloc(int bytes, void *d)
{
    (void) d;
    live_blocks++;
    return malloc((size_t) (bytes > 0 ? bytes : 1));
}

static void MOJOSHADERCALL counting_free(void *p, void *d)
{
    (void) d;
    if (p != NULL)
        live_blocks--;
    free(p);
}

static const char *shader_name(void *s)
{
    if (s == NULL)
        return "-";
    return ((Shader *) s)->pd->mainfn ? ((Shader *) s)->pd->mainfn : "?";
}


static void MOJOSHADERCALL bind_shaders(const void *ctx, void *vs, void *ps)
{
    (void) ctx;
    bound_vs = vs;
    bound_ps = ps;
    printf("bind %s %s\n", shader_name(vs), shader_name(ps));
}

static void MOJOSHADERCALL get_bound(const void *ctx, void **vs, void **ps)
{
    (void) ctx;
    *vs = bound_vs;
    *ps = bound_ps;
}

static void mark_files(void)
{
    int i;
    for (i = 0; i < FREGS; i++)
    {
        memcpy(&vsf[i], &MARK, 4);
        memcpy(&psf[i], &MARK, 4);
    }
    for (i = 0; i < IREGS; i++)
        vsi[i] = psi[i] = (int) MARK;
    memset(vsb, 0x7F, sizeof (vsb));
    memset(psb, 0x7F, sizeof (psb));
}


static void dump_uniforms(const char *what)
{
    int i;
    unsigned int w;
    for (i = 0; i < FREGS; i++)
    {
        memcpy(&w, &vsf[i], 4);
        if (w != MARK)
            printf("uniform %s vs f%d.%c 0x%08x\n", what, i / 4, "xyzw"[i % 4], w);
        memcpy(&w, &psf[i], 4);
        if (w != MARK)
            printf("uniform %s ps f%d.%c 0x%08x\n", what, i / 4, "xyzw"[i % 4], w);
    }
    for (i = 0; i < IREGS; i++)
    {
        if ((unsigned int) vsi[i] != MARK)
            printf("uniform %s vs i%d.%c 0x%08x\n", what, i / 4, "xyzw"[i % 4], (unsigned int) vsi[i]);
        if ((unsigned int) psi[i] != MARK)
            printf("uniform %s ps i%d.%c 0x%08x\n", what, i / 4, "xyzw"[i % 4], (unsigned int) psi[i]);
    }
    for (i = 0; i < BREGS; i++)
    {
        if (vsb[i] != 0x7F)
            printf("uniform %s vs b%d %u\n", what, i, vsb[i]);
        if (psb[i] != 0x7F)
            printf("uniform %s ps b%d %u\n", what, i, psb[i]);
    }
}

static const char *str(const char *s)
{
    return s ? s : "(null)";
}

static int is_sampler(int t)
{
    return t >= MOJOSHADER_SYMTYPE_SAMPLER && t <= MOJOSHADER_SYMTYPE_SAMPLERCUBE;
}

static void dump_info(const MOJOSHADER_symbolTypeInfo *t)
{
    unsigned int i;
    printf(" class=%d type=%d rows=%u columns=%u elements=%u members=%u",
           (int) t->parameter_class, (int) t->parameter_type, t->rows, t->columns,
           t->elements, t->member_count);
    for (i = 0; i < t->member_count; i++)
    {
        printf(" {%s", str(t->members[i].name));
        dump_info(&t->members[i].info);
        printf("}");
    }
}

static void dump_value(const char *field, const char *where, const MOJOSHADER_effectValue *v,
                       int depth)
{
    unsigned int i;
    printf("%s %s name=%s semantic=%s", field, where, str(v->name), str(v->semantic));
    dump_info(&v->type);
    printf(" count=%u", v->value_count);
    if (v->type.parameter_class == MOJOSHADER_SYMCLASS_OBJECT && is_sampler(v->type.parameter_type))
    {
        printf("\n");
        if (depth > 4)
            return;
        for (i = 0; i < v->value_count; i++)
        {
            char sub[256];
            snprintf(sub, sizeof (sub), "%s/ss%u:%d", where, i, (int) v->valuesSS[i].type);
            dump_value(field, sub, &v->valuesSS[i].value, depth + 1);
        }
        return;
    }
    printf(" =");
    for (i = 0; i < v->value_count && v->values != NULL; i++)
        printf(" %08x", (unsigned int) v->valuesI[i]);
    printf("\n");
}

static void dump_sampler_regs(const char *what, unsigned int n,
                              const MOJOSHADER_samplerStateRegister *r)
{
    unsigned int i, j;
    for (i = 0; i < n; i++)
    {
        printf("samplerchange %s %s reg=%u states=%u", what, str(r[i].sampler_name),
               r[i].sampler_register, r[i].sampler_state_count);
        for (j = 0; j < r[i].sampler_state_count; j++)
        {
            const MOJOSHADER_effectValue *v = &r[i].sampler_states[j].value;
            printf(" %d=", (int) r[i].sampler_states[j].type);
            if (v->value_count > 0 && v->values != NULL)
                printf("%08x", (unsigned int) v->valuesI[0]);
        }
        printf("\n");
    }
}

static void dump_params(const char *field, const MOJOSHADER_effect *e)
{
    int i;
    unsigned int j;
    char where[64];
    for (i = 0; i < e->param_count; i++)
    {
        snprintf(where, sizeof (where), "p%d", i);
        dump_value(field, where, &e->params[i].value, 0);
        for (j = 0; j < e->params[i].annotation_count; j++)
        {
            snprintf(where, sizeof (where), "p%d@%u", i, j);
            dump_value(field, where, &e->params[i].annotations[j], 0);
        }
    }
}

static void dump_effect(const MOJOSHADER_effect *e)
{
    int i;
    unsigned int j, k;
    char where[64];
    dump_params("param", e);
    for (i = 0; i < e->technique_count; i++)
    {
        const MOJOSHADER_effectTechnique *t = &e->techniques[i];
        printf("technique t%d name=%s passes=%u annotations=%u\n", i, str(t->name),
               t->pass_count, t->annotation_count);
        for (j = 0; j < t->annotation_count; j++)
        {
            snprintf(where, sizeof (where), "t%d@%u", i, j);
            dump_value("annotation", where, &t->annotations[j], 0);
        }
        for (j = 0; j < t->pass_count; j++)
        {
            const MOJOSHADER_effectPass *p = &t->passes[j];
            printf("pass t%d.p%u name=%s states=%u annotations=%u\n", i, j, str(p->name),
                   p->state_count, p->annotation_count);
            for (k = 0; k < p->annotation_count; k++)
            {
                snprintf(where, sizeof (where), "t%d.p%u@%u", i, j, k);
                dump_value("annotation", where, &p->annotations[k], 0);
            }
            for (k = 0; k < p->state_count; k++)
            {
                snprintf(where, sizeof (where), "t%d.p%u.s%u:%d", i, j, k, (int) p->states[k].type);
                dump_value("state", where, &p->states[k].value, 0);
            }
        }
    }
    for (i = 0; i < e->object_count; i++)
    {
        const MOJOSHADER_effectObject *o = &e->objects[i];
        int t = (int) o->type;
        if (t == MOJOSHADER_SYMTYPE_VERTEXSHADER || t == MOJOSHADER_SYMTYPE_PIXELSHADER)
        {
            const MOJOSHADER_effectShader *s = &o->shader;
            printf("object o%d type=%d technique=%u pass=%u preshader=%u params=", i, t,
                   s->technique, s->pass, s->is_preshader);
            for (j = 0; j < s->param_count; j++)
                printf("%s%u", j ? "," : "", s->params[j]);
            printf(" preshader_params=");
            for (j = 0; j < s->preshader_param_count; j++)
                printf("%s%u", j ? "," : "", s->preshader_params[j]);
            if (s->is_preshader)
                printf(" selector_instructions=%u\n",
                       s->preshader ? s->preshader->instruction_count : 0u);
            else
            {
                printf(" shader=%s samplers=%u\n", s->shader ? shader_name(s->shader) : "-",
                       s->sampler_count);
                dump_sampler_regs("object", s->sampler_count, s->samplers);
            }
        }
        else if (t == MOJOSHADER_SYMTYPE_STRING)
            printf("object o%d type=%d string=%s\n", i, t, str(o->string.string));
        else if (t >= MOJOSHADER_SYMTYPE_TEXTURE && t <= MOJOSHADER_SYMTYPE_SAMPLERCUBE)
            printf("object o%d type=%d mapping=%s\n", i, t, str(o->mapping.name));
        else
            printf("object o%d type=%d\n", i, t);
    }
}

/* New values for every numeric parameter: element k of parameter i is i + k / 4
 * (floats), (i + k) % 4 (ints: array selectors stay within small arrays), k % 2
 * (bools). */
static void set_values(MOJOSHADER_effect *e)
{
    int i;
    unsigned int k;
    for (i = 0; i < e->param_count; i++)
    {
        const MOJOSHADER_effectValue *v = &e->params[i].value;
        int c = (int) v->type.parameter_class;
        int t = (int) v->type.parameter_type;
        if (c > MOJOSHADER_SYMCLASS_MATRIX_COLUMNS || v->name == NULL)
            continue;
        for (k = 0; k < v->value_count; k++)
        {
            int word;
            if (t == MOJOSHADER_SYMTYPE_FLOAT)
            {
                float f = (float) i + (float) k / 4.0f;
                memcpy(&word, &f, 4);
            }
            else if (t == MOJOSHADER_SYMTYPE_BOOL)
                word = (int) (k % 2);
            else
                word = (i + (int) k) % 4;
            MOJOSHADER_effectSetRawValueName(e, v->name, &word, k * 4, 4);
        }
    }
}

static void run(MOJOSHADER_effect *e)
{
    const MOJOSHADER_effectTechnique *t = MOJOSHADER_effectFindNextValidTechnique(e, NULL);
    int ti = 0;
    int changed = 0;
    while (t != NULL)
    {
        unsigned int n = 0, p;
        MOJOSHADER_effectStateChanges sc;
        memset(&sc, 0, sizeof (sc));
        MOJOSHADER_effectSetTechnique(e, t);
        printf("run t%d current=%d\n", ti,
               (int) (MOJOSHADER_effectGetCurrentTechnique(e) - e->techniques));
        MOJOSHADER_effectBegin(e, &n, 1, &sc);
        printf("begin t%d passes=%u\n", ti, n);
        for (p = 0; p < n; p++)
        {
            unsigned int k;
            char what[64];
            mark_files();
            MOJOSHADER_effectBeginPass(e, p);
            printf("beginpass t%d.p%u current_pass=%d\n", ti, p, e->current_pass);
            printf("renderchanges t%d.p%u %u", ti, p, sc.render_state_change_count);
            for (k = 0; k < sc.render_state_change_count; k++)
                printf(" %d", (int) sc.render_state_changes[k].type);
            printf("\n");
            dump_sampler_regs("ps", sc.sampler_state_change_count, sc.sampler_state_changes);
            dump_sampler_regs("vs", sc.vertex_sampler_state_change_count,
                              sc.vertex_sampler_state_changes);
            snprintf(what, sizeof (what), "t%d.p%u.begin", ti, p);
            dump_uniforms(what);
            if (!changed)
            {
                set_values(e);
                changed = 1;
            }
            mark_files();
            MOJOSHADER_effectCommitChanges(e);
            snprintf(what, sizeof (what), "t%d.p%u.commit", ti, p);
            dump_uniforms(what);
            MOJOSHADER_effectEndPass(e);
        }
        MOJOSHADER_effectEnd(e);
        printf("end t%d bound %s %s\n", ti, shader_name(bound_vs), shader_name(bound_ps));
        t = MOJOSHADER_effectFindNextValidTechnique(e, t);
        ti++;
    }
}

int main(int argc, char **argv)
{
    FILE *fp;
    long len;
    unsigned char *buf;
    int i;
    MOJOSHADER_effect *e, *clone;
    MOJOSHADER_effectShaderContext ctx;
    if (argc != 2)
    {
        fprintf(stderr, "usage: effect_dump EFFECT\n");
        return 2;
    }
    fp = fopen(argv[1], "rb");
    if (fp == NULL)
        return 2;
    fseek(fp, 0, SEEK_END);
    len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    buf = (unsigned char *) malloc((size_t) len + 1);
    if (fread(buf, 1, (size_t) len, fp) != (size_t) len)
        return 2;
    fclose(fp);

    shader_context(&ctx, bind_shaders, get_bound);
    ctx.m = counting_malloc;
    ctx.f = counting_free;

    e = MOJOSHADER_compileEffect(buf, (unsigned int) len, NULL, 0, NULL, 0, &ctx);
    printf("errors %d\n", e->error_count);
    for (i = 0; i < e->error_count; i++)
        printf("error %s\n", str(e->errors[i].error));
    fflush(stdout);
    if (e->error_count > 0)
    {
        if (e->ctx.f != NULL)
            MOJOSHADER_deleteEffect(e);
        free(buf);
        return 0;
    }
    printf("counts params=%d techniques=%d objects=%d current=%d pass=%d\n", e->param_count,
           e->technique_count, e->object_count,
           e->current_technique ? (int) (e->current_technique - e->techniques) : -1,
           e->current_pass);
    dump_effect(e);
    fflush(stdout);
    run(e);
    fflush(stdout);
    clone = MOJOSHADER_cloneEffect(e);
    if (clone != NULL)
    {
        printf("clone current=%d pass=%d\n",
               clone->current_technique ? (int) (clone->current_technique - clone->techniques) : -1,
               clone->current_pass);
        dump_params("cloneparam", clone);
        MOJOSHADER_deleteEffect(clone);
    }
    MOJOSHADER_deleteEffect(e);
    printf("leak %ld\n", live_blocks);
    free(buf);
    return 0;
}
