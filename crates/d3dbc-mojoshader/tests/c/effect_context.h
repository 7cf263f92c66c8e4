/*
 * effect_context.h: the shader half of a MOJOSHADER_effectShaderContext, shared by
 * effect_dump.c and effect_bench.c: compileShader is MOJOSHADER_parse with the
 * "bytecode" profile (its error kept for getError), shaderAddRef/deleteShader count
 * references, getParseData hands back the parse. Also the register files that
 * mapUniformBufferMemory hands out.
 */
#ifndef EFFECT_CONTEXT_H
#define EFFECT_CONTEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mojoshader.h"

typedef struct Shader
{
    const MOJOSHADER_parseData *pd;
    int refcount;
} Shader;

static const char *last_error = "";
static char error_buf[512];

#define FREGS (8192 * 4)
#define IREGS (2048 * 4)
#define BREGS 2048
static float vsf[FREGS], psf[FREGS];
static int vsi[IREGS], psi[IREGS];
static unsigned char vsb[BREGS], psb[BREGS];

static void *MOJOSHADERCALL compile_shader(const void *ctx, const char *mainfn,
                                           const unsigned char *tokenbuf,
                                           const unsigned int bufsize,
                                           const MOJOSHADER_swizzle *swiz,
                                           const unsigned int swizcount,
                                           const MOJOSHADER_samplerMap *smap,
                                           const unsigned int smapcount)
{
    Shader *s;
    const MOJOSHADER_parseData *pd;
    (void) ctx;
    pd = MOJOSHADER_parse("bytecode", mainfn, tokenbuf, bufsize, swiz, swizcount,
                          smap, smapcount, NULL, NULL, NULL);
    if (pd->error_count > 0)
    {
        snprintf(error_buf, sizeof (error_buf), "parse: %s", pd->errors[0].error);
        last_error = error_buf;
        MOJOSHADER_freeParseData(pd);
        return NULL;
    }
    s = (Shader *) malloc(sizeof (Shader));
    s->pd = pd;
    s->refcount = 1;
    return s;
}

static void MOJOSHADERCALL add_ref(void *shader)
{
    ((Shader *) shader)->refcount++;
}

static void MOJOSHADERCALL delete_shader(const void *ctx, void *shader)
{
    Shader *s = (Shader *) shader;
    (void) ctx;
    if (s == NULL)
        return;
    if (--s->refcount == 0)
    {
        MOJOSHADER_freeParseData(s->pd);
        free(s);
    }
}

static MOJOSHADER_parseData *MOJOSHADERCALL get_parse_data(void *shader)
{
    return (MOJOSHADER_parseData *) ((Shader *) shader)->pd;
}

static void MOJOSHADERCALL map_uniforms(const void *ctx, float **vf, int **vi,
                                        unsigned char **vb, float **pf, int **pi,
                                        unsigned char **pb)
{
    (void) ctx;
    *vf = vsf; *vi = vsi; *vb = vsb;
    *pf = psf; *pi = psi; *pb = psb;
}

static void MOJOSHADERCALL unmap_uniforms(const void *ctx)
{
    (void) ctx;
}

static const char *MOJOSHADERCALL get_error(const void *ctx)
{
    (void) ctx;
    return last_error;
}

/* A context with these callbacks and the given binding pair; the rest NULL. */
static void shader_context(MOJOSHADER_effectShaderContext *ctx,
                           MOJOSHADER_bindShadersFunc bind,
                           MOJOSHADER_getBoundShadersFunc bound)
{
    memset(ctx, 0, sizeof (*ctx));
    ctx->compileShader = compile_shader;
    ctx->shaderAddRef = add_ref;
    ctx->deleteShader = delete_shader;
    ctx->getParseData = get_parse_data;
    ctx->bindShaders = bind;
    ctx->getBoundShaders = bound;
    ctx->mapUniformBufferMemory = map_uniforms;
    ctx->unmapUniformBufferMemory = unmap_uniforms;
    ctx->getError = get_error;
}

#endif
