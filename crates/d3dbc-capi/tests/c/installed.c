/* The C library as installed by `cargo xtask capi --prefix DIR`, linked through
 * pkg-config (.ci/run builds this shared and static): prints the listing of the shader
 * file named on the command line, as `d3dbc dis FILE` does, then its SPIR-V size.
 *
 * usage: installed FILE */
#include <stdio.h>
#include <stdlib.h>

#include <d3dbc.h>

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 20];
    d3dbc_compile_info info = {0};
    d3dbc_code out;
    char *messages = NULL;
    size_t size;
    FILE *f;
    int rc;
    if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
        fprintf(stderr, "usage: installed FILE\n");
        return 2;
    }
    size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    info.struct_size = sizeof info;
    info.source_type = D3DBC_SOURCE_BYTECODE;
    info.source.data = buf;
    info.source.size = size;
    info.target_type = D3DBC_TARGET_ASSEMBLY;
    rc = d3dbc_compile(&info, &out, &messages);
    if (rc != D3DBC_OK) {
        fprintf(stderr, "%s: error %d: %s\n", argv[1], rc, messages ? messages : "");
        d3dbc_free_messages(messages);
        return 1;
    }
    fwrite(out.data, 1, out.size, stdout);
    d3dbc_free_code(&out);
    info.target_type = D3DBC_TARGET_SPIRV;
    rc = d3dbc_compile(&info, &out, &messages);
    if (rc != D3DBC_OK || out.size % 4 != 0 || ((const unsigned *)out.data)[0] != 0x07230203u) {
        fprintf(stderr, "%s: no SPIR-V module (%d)\n", argv[1], rc);
        return 1;
    }
    fprintf(stderr, "SPIR-V: %zu bytes, d3dbc %u\n", out.size, d3dbc_version());
    d3dbc_free_code(&out);
    return 0;
}
