/* d3dbc-peers: a call into MojoShader with plain types, so the Rust side never mirrors
 * MOJOSHADER_parseData's layout. Parses `len` bytes of D3D9 bytecode with `profile`
 * ("spirv", "d3d", "glsl", ...), frees the result, and returns its error count (0 on
 * success), writing the output's length to `*out_len`. */
#include <stddef.h>
#include "mojoshader.h"

int d3dbc_peer_mojoshader_parse(const char *profile, const unsigned char *buf,
                                unsigned int len, size_t *out_len)
{
    const MOJOSHADER_parseData *pd = MOJOSHADER_parse(profile, "main", buf, len,
                                                      NULL, 0, NULL, 0, NULL, NULL, NULL);
    int errors;
    if (pd == NULL)
        return -1;
    errors = pd->error_count;
    *out_len = pd->output_len > 0 ? (size_t) pd->output_len : 0;
    MOJOSHADER_freeParseData(pd);
    return errors;
}
