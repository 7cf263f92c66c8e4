/* Drives every function of d3dbc.h from C for tests/c_api.rs, which compiles it with
 * -Wall -Wextra -Werror -pedantic and compares what it writes with the Rust API's
 * answers for the same inputs.
 *
 * usage: native MANIFEST
 * Each line of MANIFEST: OP SOURCE TARGET IN OUT [NAME=VALUE ...]
 *   OP      compile | validate | reflect | effect
 *   SOURCE  0 bytecode, 1 assembly, 2 effect (enum d3dbc_source_type)
 *   TARGET  enum d3dbc_target_type (compile only)
 * OUT receives the output bytes (compile) or a text dump (the others); a failure
 * writes "error CODE\n" and the messages instead. Exit status 0 when every line ran. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3dbc.h"

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return buf;
}

static void failed(FILE *out, int code, char *messages)
{
    fprintf(out, "error %d\n%s\n", code, messages ? messages : "");
    d3dbc_free_messages(messages);
}

static unsigned bits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void dump_constants(FILE *out, const char *stage, const d3dbc_constants *c)
{
    size_t i;
    for (i = 0; i < c->float_count; i++)
        fprintf(out, "%s c%u %08x %08x %08x %08x\n", stage, c->floats[i].register_index,
                bits(c->floats[i].value[0]), bits(c->floats[i].value[1]), bits(c->floats[i].value[2]),
                bits(c->floats[i].value[3]));
    for (i = 0; i < c->int_count; i++)
        fprintf(out, "%s i%u %d %d %d %d\n", stage, c->ints[i].register_index, c->ints[i].value[0],
                c->ints[i].value[1], c->ints[i].value[2], c->ints[i].value[3]);
    for (i = 0; i < c->bool_count; i++)
        fprintf(out, "%s b%u %d\n", stage, c->bools[i].register_index, c->bools[i].value);
}

static unsigned long fnv(const d3dbc_code *c)
{
    unsigned long h = 2166136261ul;
    size_t i;
    for (i = 0; i < c->size; i++)
        h = ((h ^ ((const unsigned char *)c->data)[i]) * 16777619ul) & 0xfffffffful;
    return h;
}

static void run_effect(FILE *out, const unsigned char *data, size_t size)
{
    d3dbc_effect *e = NULL;
    char *messages = NULL;
    size_t t, p, i, k;
    int rc = d3dbc_effect_open(data, size, &e, &messages);
    if (rc != D3DBC_OK) {
        failed(out, rc, messages);
        return;
    }
    for (i = 0; i < d3dbc_effect_parameter_count(e); i++) {
        d3dbc_effect_parameter info;
        if (d3dbc_effect_parameter_info(e, i, &info) != D3DBC_OK)
            abort();
        fprintf(out, "parameter %s:%s class %u type %u %ux%u [%u] flags %u annotations %u floats %zu\n",
                info.name, info.semantic, info.parameter_class, info.parameter_type, info.rows,
                info.columns, info.elements, info.flags, info.annotation_count, info.float_count);
        if (info.float_count > 0 && info.float_count <= 64) {
            float v[64];
            size_t n = 0;
            if (d3dbc_effect_get_parameter(e, info.name, v, 64, &n, NULL) != D3DBC_OK || n != info.float_count)
                abort();
            /* Setting a parameter to its own value changes nothing. */
            if (d3dbc_effect_set_parameter(e, info.name, v, n, NULL) != D3DBC_OK)
                abort();
        }
    }
    for (t = 0; t < d3dbc_effect_technique_count(e); t++) {
        fprintf(out, "technique %s\n", d3dbc_effect_technique_name(e, t));
        for (p = 0; p < d3dbc_effect_pass_count(e, t); p++) {
            d3dbc_pass_state *s = NULL;
            fprintf(out, " pass %s\n", d3dbc_effect_pass_name(e, t, p));
            rc = d3dbc_effect_evaluate_pass(e, t, p, &s, &messages);
            if (rc != D3DBC_OK) {
                failed(out, rc, messages);
                continue;
            }
            fprintf(out, "  vs %zu %08lx ps %zu %08lx\n", s->vertex_shader.size, fnv(&s->vertex_shader),
                    s->pixel_shader.size, fnv(&s->pixel_shader));
            for (i = 0; i < s->state_count; i++) {
                fprintf(out, "  state %s %u %u %u %u:", s->states[i].name, s->states[i].operation,
                        s->states[i].state_class, s->states[i].state, s->states[i].index);
                for (k = 0; k < s->states[i].word_count; k++)
                    fprintf(out, " %08x", s->states[i].words[k]);
                fprintf(out, "\n");
            }
            dump_constants(out, "  vs", &s->vs_constants);
            dump_constants(out, "  ps", &s->ps_constants);
            if (s->failure)
                fprintf(out, "  failure %s\n", s->failure);
            d3dbc_free_pass_state(s);
        }
    }
    /* Out of range: errors, never crashes. */
    if (d3dbc_effect_technique_name(e, 1000) != NULL || d3dbc_effect_pass_count(e, 1000) != 0)
        abort();
    d3dbc_effect_free(e);
}

static void run_reflect(FILE *out, const d3dbc_compile_info *info)
{
    d3dbc_interface *r = NULL;
    char *messages = NULL;
    size_t i, k;
    int rc = d3dbc_reflect(info, &r, &messages);
    if (rc != D3DBC_OK) {
        failed(out, rc, messages);
        return;
    }
    d3dbc_free_messages(messages);
    fprintf(out, "stage %d version %s entry %s group %u\n", (int)r->stage, r->version, r->entry_point, r->group);
    fprintf(out, "buffers %u:%u %u:%u %u:%u %u:%u\n", r->float_constants.binding, r->float_constants.registers,
            r->int_constants.binding, r->int_constants.registers, r->bool_constants.binding,
            r->bool_constants.registers, r->driver.binding, r->driver.registers);
    for (i = 0; i < r->sampler_count; i++)
        fprintf(out, "sampler %u kind %d texture %u sampler %u\n", r->samplers[i].stage, (int)r->samplers[i].kind,
                r->samplers[i].texture_binding, r->samplers[i].sampler_binding);
    for (i = 0; i < r->vertex_input_count; i++)
        fprintf(out, "input %d %u v%u @%u\n", r->vertex_inputs[i].usage, r->vertex_inputs[i].usage_index,
                r->vertex_inputs[i].register_index, r->vertex_inputs[i].location);
    for (i = 0; i < r->varying_count; i++)
        fprintf(out, "varying %u %u @%u flat %u centroid %u\n", r->varyings[i].usage, r->varyings[i].usage_index,
                r->varyings[i].location, r->varyings[i].flat, r->varyings[i].centroid);
    for (i = 0; i < r->color_output_count; i++)
        fprintf(out, "color %u\n", r->color_outputs[i]);
    fprintf(out, "depth %u discards %u\n", r->depth_output, r->discards);
    for (i = 0; i < r->constant_count; i++) {
        const d3dbc_constant *c = &r->constants[i];
        fprintf(out, "constant %s set %u reg %u count %u class %u type %u %ux%u [%u] default", c->name,
                c->register_set, c->register_index, c->register_count, c->parameter_class, c->parameter_type,
                c->rows, c->columns, c->elements);
        for (k = 0; k < c->default_value_count; k++)
            fprintf(out, " %08x", c->default_value[k]);
        fprintf(out, "\n");
    }
    d3dbc_free_interface(r);
}

static void run_validate(FILE *out, const d3dbc_compile_info *info)
{
    d3dbc_validation *v = NULL;
    char *messages = NULL;
    size_t i;
    int rc = d3dbc_validate(info, &v, &messages);
    if (rc != D3DBC_OK) {
        failed(out, rc, messages);
        return;
    }
    fprintf(out, "valid %d failed %d shaders %zu\n", v->valid, v->failed, v->shader_count);
    for (i = 0; i < v->finding_count; i++) {
        const d3dbc_finding *f = &v->findings[i];
        fprintf(out, "[%s] %d +%zu %u:%u `%s` %s\n", f->code, (int)f->severity, f->offset, f->line, f->column,
                f->instruction, f->message);
    }
    fprintf(out, "%s\n", v->text);
    d3dbc_free_validation(v);
}

int main(int argc, char **argv)
{
    FILE *manifest;
    char line[8192];
    if (argc != 2) {
        fprintf(stderr, "usage: native MANIFEST\n");
        return 2;
    }
    manifest = fopen(argv[1], "r");
    if (!manifest) {
        perror(argv[1]);
        return 2;
    }
    while (fgets(line, sizeof line, manifest)) {
        char *op = strtok(line, " \n"), *source = strtok(NULL, " \n"), *target = strtok(NULL, " \n");
        char *in = strtok(NULL, " \n"), *outp = strtok(NULL, " \n"), *kv;
        d3dbc_option options[16];
        size_t count = 0, size = 0;
        d3dbc_compile_info info;
        unsigned char *data;
        FILE *out;
        if (!op || !source || !target || !in || !outp)
            continue;
        while ((kv = strtok(NULL, " \n")) != NULL && count < 16) {
            char *eq = strchr(kv, '=');
            if (!eq)
                continue;
            *eq = 0;
            options[count].name = kv;
            options[count].value = eq + 1;
            count++;
        }
        data = read_file(in, &size);
        out = fopen(outp, "wb");
        if (!data || !out) {
            perror(in);
            return 1;
        }
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        info.source_type = (d3dbc_source_type)atoi(source);
        info.target_type = (d3dbc_target_type)atoi(target);
        info.source.data = data;
        info.source.size = size;
        info.options = count ? options : NULL;
        info.option_count = count;
        if (strcmp(op, "compile") == 0) {
            d3dbc_code code;
            char *messages = NULL;
            int rc = d3dbc_compile(&info, &code, &messages);
            if (rc == D3DBC_OK) {
                if (((const char *)code.data)[code.size] != 0)
                    abort(); /* outputs end with a NUL byte */
                fwrite(code.data, 1, code.size, out);
                d3dbc_free_code(&code);
                d3dbc_free_code(&code); /* freeing twice is harmless: the first emptied it */
                d3dbc_free_messages(messages);
            } else {
                if (code.data != NULL || code.size != 0)
                    abort();
                failed(out, rc, messages);
            }
        } else if (strcmp(op, "validate") == 0) {
            run_validate(out, &info);
        } else if (strcmp(op, "reflect") == 0) {
            run_reflect(out, &info);
        } else if (strcmp(op, "effect") == 0) {
            run_effect(out, data, size);
        }
        fclose(out);
        free(data);
    }
    fclose(manifest);
    return 0;
}
