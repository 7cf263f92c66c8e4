/* parse_dump.c: a program written for MojoShader's API, built twice by
 * tests/mojoshader_differential.rs (against MojoShader and against libd3dbc_mojoshader),
 * that prints every field of MOJOSHADER_parse's answer for each shader file it is given,
 * one field per line, so that the two builds' outputs compare field by field.
 *
 * usage: parse_dump PROFILE OUTDIR < list-of-shader-files
 * For the spirv profile it also writes OUTDIR/N.spv: the module without the patch table
 * (for spirv-val). A line "link VS PS" links two spirv answers and writes OUTDIR/N.vs.spv
 * and OUTDIR/N.ps.spv, and prints the location each linked varying got. It also prints
 * the fields of the spirv patch table the glue reads (uniform and sampler entries, which
 * varyings and colour outputs have a location to patch). */

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include "mojoshader.h"

static unsigned long allocations = 0;

static void *MOJOSHADERCALL counting_malloc(int bytes, void *data)
{
    (void) data;
    allocations++;
    return malloc((size_t) bytes);
}

static void MOJOSHADERCALL counting_free(void *ptr, void *data)
{
    (void) data;
    if (ptr != NULL)
        allocations--;
    free(ptr);
}

static unsigned char *slurp(const char *path, unsigned int *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    unsigned char *buf;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *) malloc((size_t) n + 1);
    if (buf == NULL || fread(buf, 1, (size_t) n, f) != (size_t) n)
    {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = (unsigned int) n;
    return buf;
}

static unsigned long long fnv(const char *p, int n)
{
    unsigned long long h = 1469598103934665603ULL;
    int i;
    for (i = 0; i < n; i++)
    {
        h ^= (unsigned char) p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static void type_info(const MOJOSHADER_symbolTypeInfo *t)
{
    unsigned int i;
    printf(" class=%d type=%d rows=%u columns=%u elements=%u members=%u",
           (int) t->parameter_class, (int) t->parameter_type, t->rows, t->columns,
           t->elements, t->member_count);
    for (i = 0; i < t->member_count; i++)
    {
        printf(" {%s", t->members[i].name);
        type_info(&t->members[i].info);
        printf("}");
    }
}

static void dump_preshader(const MOJOSHADER_preshader *p)
{
    unsigned int i, j, k;
    printf("preshader literals=%u temps=%u symbols=%u instructions=%u registers=%u\n",
           p->literal_count, p->temp_count, p->symbol_count, p->instruction_count,
           p->register_count);
    for (i = 0; i < p->literal_count; i++)
        printf("preshader literal %.17g\n", p->literals[i]);
    for (i = 0; i < p->symbol_count; i++)
        printf("preshader symbol %s set=%d index=%u count=%u\n", p->symbols[i].name,
               (int) p->symbols[i].register_set, p->symbols[i].register_index,
               p->symbols[i].register_count);
    for (i = 0; i < p->instruction_count; i++)
    {
        const MOJOSHADER_preshaderInstruction *in = &p->instructions[i];
        printf("preshader op %d elements=%u operands=%u", (int) in->opcode, in->element_count,
               in->operand_count);
        for (j = 0; j < in->operand_count && j < 4; j++)
        {
            printf(" %d:%u", (int) in->operands[j].type, in->operands[j].index);
            for (k = 0; k < in->operands[j].array_register_count; k++)
                printf("[%u]", in->operands[j].array_registers[k]);
        }
        printf("\n");
    }
}

static size_t spirv_module_len(const MOJOSHADER_parseData *d)
{
    /* The patch table follows the module: its size is the difference between the
     * output and the module's words, which the caller cannot know from the public
     * header; both libraries put the module first, so scan the module's instructions. */
    const unsigned int *w = (const unsigned int *) d->output;
    size_t words = (size_t) d->output_len / 4, at = 5;
    if (d->output_len < 20 || w[0] != 0x07230203)
        return 0;
    while (at < words)
    {
        unsigned int n = w[at] >> 16, op = w[at] & 0xFFFF;
        if (n == 0 || op > 0x2000)
            break;
        at += n;
    }
    return at > words ? words * 4 : at * 4;
}

/* MojoShader's SpirvPatchTable (mojoshader_internal.h, not in the public header),
 * which follows the module in a spirv answer. */
typedef struct { unsigned int offset; int location; } PatchEntry;
typedef struct { unsigned int num_loads; unsigned int *load_types; unsigned int *load_opcodes; } LoadOffsets;
typedef struct
{
    PatchEntry vpflip, array_vec4, array_ivec4, array_bool, samplers[16];
    int location_count;
    unsigned int pointcoord_var_offset, pointcoord_load_offset;
    unsigned int tid_pvec2i, tid_vec2, tid_pvec4i, tid_vec4, tid_ivec4, tid_uvec4;
    unsigned int tid_vec4_p, tid_ivec4_p, tid_uvec4_p;
    unsigned int attrib_type_offsets[MOJOSHADER_USAGE_TOTAL][16];
    LoadOffsets attrib_type_load_offsets[MOJOSHADER_USAGE_TOTAL][16];
    unsigned int attrib_offsets[MOJOSHADER_USAGE_TOTAL][16];
    unsigned int output_offsets[16];
} PatchTable;

static const PatchTable *patch_table(const MOJOSHADER_parseData *d)
{
    if (d->output_len < (int) sizeof(PatchTable) + 20)
        return NULL;
    return (const PatchTable *) (d->output + d->output_len - sizeof(PatchTable));
}

static void print_entry(const char *name, const PatchEntry *e)
{
    printf("spirv_patch %s %s %d\n", name, e->offset ? "offset" : "none", e->location);
}

/* The table's fields the glue reads: the uniform and sampler entries and which
 * varyings and colour outputs have a Location literal to patch. */
static void dump_table(const MOJOSHADER_parseData *d)
{
    const PatchTable *t = patch_table(d);
    int i, j;
    if (t == NULL)
        return;
    print_entry("vpflip", &t->vpflip);
    print_entry("array_vec4", &t->array_vec4);
    print_entry("array_ivec4", &t->array_ivec4);
    print_entry("array_bool", &t->array_bool);
    for (i = 0; i < 16; i++)
    {
        char name[32];
        snprintf(name, sizeof name, "sampler%d", i);
        print_entry(name, &t->samplers[i]);
    }
    printf("spirv_location_count %d\n", t->location_count);
    for (i = 0; i < MOJOSHADER_USAGE_TOTAL; i++)
        for (j = 0; j < 16; j++)
            if (t->attrib_offsets[i][j])
                printf("spirv_attrib %d %d\n", i, j);
    for (i = 0; i < 16; i++)
        if (t->output_offsets[i])
            printf("spirv_output %d\n", i);
}

/* After linking: the location each varying's literal holds. */
static void dump_linked(const char *stage, const MOJOSHADER_parseData *d)
{
    const PatchTable *t = patch_table(d);
    const unsigned int *w = (const unsigned int *) d->output;
    size_t words = spirv_module_len(d) / 4;
    int i, j;
    if (t == NULL)
        return;
    for (i = 0; i < MOJOSHADER_USAGE_TOTAL; i++)
        for (j = 0; j < 16; j++)
        {
            unsigned int o = t->attrib_offsets[i][j];
            /* (POINTSIZE, 0) is the PointSize built-in: MojoShader's entry is a
             * sentinel (1, moved by the table's base offset), not a literal. */
            if (o > 1 && o < words && !(i == MOJOSHADER_USAGE_POINTSIZE && j == 0))
                printf("linked_location %s %d %d %u\n", stage, i, j, w[o]);
        }
}

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f != NULL)
    {
        fwrite(data, 1, len, f);
        fclose(f);
    }
}

static void dump(const char *profile, const MOJOSHADER_parseData *d, const char *outdir, int n)
{
    int i;
    printf("errors %d\n", d->error_count);
    for (i = 0; i < d->error_count; i++)
        printf("error %d %s\n", d->errors[i].error_position, d->errors[i].error);
    if (d->error_count > 0)
        return;
    printf("profile %s\n", d->profile);
    printf("shader %d %d.%d\n", (int) d->shader_type, d->major_ver, d->minor_ver);
    printf("instruction_count %d\n", d->instruction_count);
    printf("mainfn %s\n", d->mainfn ? d->mainfn : "(null)");
    for (i = 0; i < d->uniform_count; i++)
        printf("uniform %d %d %d %d %s\n", (int) d->uniforms[i].type, d->uniforms[i].index,
               d->uniforms[i].array_count, d->uniforms[i].constant, d->uniforms[i].name);
    for (i = 0; i < d->constant_count; i++)
        printf("constant %d %d %08x %08x %08x %08x\n", (int) d->constants[i].type,
               d->constants[i].index, (unsigned) d->constants[i].value.i[0],
               (unsigned) d->constants[i].value.i[1], (unsigned) d->constants[i].value.i[2],
               (unsigned) d->constants[i].value.i[3]);
    for (i = 0; i < d->sampler_count; i++)
        printf("sampler %d %d %s %d\n", (int) d->samplers[i].type, d->samplers[i].index,
               d->samplers[i].name, d->samplers[i].texbem);
    for (i = 0; i < d->attribute_count; i++)
        printf("attribute %d %d %s\n", (int) d->attributes[i].usage, d->attributes[i].index,
               d->attributes[i].name);
    for (i = 0; i < d->output_count; i++)
        printf("output %d %d %s\n", (int) d->outputs[i].usage, d->outputs[i].index,
               d->outputs[i].name);
    for (i = 0; i < d->swizzle_count; i++)
        printf("swizzle %d %u %d%d%d%d\n", (int) d->swizzles[i].usage, d->swizzles[i].index,
               d->swizzles[i].swizzles[0], d->swizzles[i].swizzles[1],
               d->swizzles[i].swizzles[2], d->swizzles[i].swizzles[3]);
    for (i = 0; i < d->symbol_count; i++)
    {
        printf("symbol %s set=%d index=%u count=%u", d->symbols[i].name,
               (int) d->symbols[i].register_set, d->symbols[i].register_index,
               d->symbols[i].register_count);
        type_info(&d->symbols[i].info);
        printf("\n");
    }
    printf("preshader %s\n", d->preshader ? "yes" : "no");
    if (d->preshader != NULL)
        dump_preshader(d->preshader);
    if (strcmp(profile, "spirv") == 0)
    {
        char path[4096];
        size_t len = spirv_module_len(d);
        snprintf(path, sizeof path, "%s/%d.spv", outdir, n);
        write_file(path, d->output, len);
        printf("spirv_module %s\n", len > 0 ? "yes" : "no");
        dump_table(d);
    }
    else
        printf("blob %d %016llx\n", d->output_len, fnv(d->output, d->output_len));
}

int main(int argc, char **argv)
{
    char line[4096];
    int n = 0;
    static const MOJOSHADER_swizzle swiz[1] = { { MOJOSHADER_USAGE_COLOR, 0, { 2, 1, 0, 3 } } };
    if (argc < 3)
        return 2;
    printf("version %d\n", MOJOSHADER_version() != 0 ? 1 : 0);
    printf("maxShaderModel %d %d\n", MOJOSHADER_maxShaderModel(argv[1]),
           MOJOSHADER_maxShaderModel("no-such-profile"));
    while (fgets(line, sizeof line, stdin) != NULL)
    {
        unsigned int len = 0;
        unsigned char *buf;
        const MOJOSHADER_parseData *d;
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "link ", 5) == 0)
        {
            char *vs = line + 5, *ps = strchr(vs, ' ');
            unsigned int vl = 0, pl = 0;
            unsigned char *vb, *pb;
            const MOJOSHADER_parseData *v, *p;
            char path[4096];
            if (ps == NULL)
                continue;
            *ps++ = '\0';
            vb = slurp(vs, &vl);
            pb = slurp(ps, &pl);
            if (vb == NULL || pb == NULL)
                return 3;
            v = MOJOSHADER_parse("spirv", "main", vb, vl, NULL, 0, NULL, 0, NULL, NULL, NULL);
            p = MOJOSHADER_parse("spirv", "main", pb, pl, NULL, 0, NULL, 0, NULL, NULL, NULL);
            printf("== link %d %s %s\n", n, vs, ps);
            if (v->error_count == 0 && p->error_count == 0)
            {
                MOJOSHADER_linkSPIRVShaders(v, p, NULL, 0);
                printf("linked\n");
                dump_linked("vs", v);
                dump_linked("ps", p);
                snprintf(path, sizeof path, "%s/%d.vs.spv", argv[2], n);
                write_file(path, v->output, spirv_module_len(v));
                snprintf(path, sizeof path, "%s/%d.ps.spv", argv[2], n);
                write_file(path, p->output, spirv_module_len(p));
            }
            else
                printf("refused %d %d\n", v->error_count, p->error_count);
            MOJOSHADER_freeParseData(v);
            MOJOSHADER_freeParseData(p);
            free(vb);
            free(pb);
            n++;
            continue;
        }
        buf = slurp(line, &len);
        if (buf == NULL)
            return 3;
        printf("== %d %s\n", n, line);
        fflush(stdout);
        /* Each shader in a child process: an assertion or crash in the library is
         * reported ("crash") instead of ending the run. */
        {
            pid_t pid = fork();
            int status = 0;
            if (pid == 0)
            {
                d = MOJOSHADER_parse(argv[1], "main", buf, len, swiz, 1, NULL, 0,
                                     counting_malloc, counting_free, NULL);
                dump(argv[1], d, argv[2], n);
                MOJOSHADER_freeParseData(d);
                if (allocations != 0)
                    printf("leak %lu\n", allocations);
                fflush(stdout);
                _exit(0);
            }
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                printf("errors crash\n");
        }
        free(buf);
        n++;
    }
    /* unknown profile */
    {
        static const unsigned char ps[8] = { 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00 };
        const MOJOSHADER_parseData *d =
            MOJOSHADER_parse("no-such-profile", "main", ps, 8, NULL, 0, NULL, 0, NULL, NULL, NULL);
        printf("== unknown-profile\n");
        dump("none", d, argv[2], -1);
        MOJOSHADER_freeParseData(d);
    }
    return 0;
}
