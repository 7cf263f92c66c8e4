//! Linking a vertex shader to a pixel shader, as a D3D9 driver does when it builds a
//! pipeline, by the rules of [`d3dbc::target::link`] that `d3dbc_naga::link` applies too.
//! Where the naga path rewrites two translated modules, the direct emitter emits the
//! pair: the pixel shader first (its inputs move to compact locations), then the vertex
//! shader, writing exactly what the pixel shader reads.

use d3dbc::Shader;

use crate::{run, translation, EmitFlags, Error, Input, TranslateOptions, Translation};

/// Emits a vertex/pixel pair linked as `d3dbc_naga::link` links the naga translations
/// (same rules, same resulting locations and interfaces): the pixel inputs move to
/// compact locations `0..N` in fixed-location order, and the vertex shader writes
/// exactly those varyings, with the pixel inputs' interpolation and sampling, a
/// varying it does not produce reading D3D9's default.
pub fn link(
    vs: &Shader,
    ps: &Shader,
    options: &TranslateOptions,
    flags: EmitFlags,
) -> Result<(Translation, Translation), Error> {
    if !vs.version.is_vertex() || !ps.version.is_pixel() {
        return Err(Error::Link("needs a vertex and a pixel shader"));
    }
    let both = |v, words, itf: &mut _, reads| (translation(v, words, itf, Vec::new()), reads);
    let (p, reads) = run(Input::Shader(ps), options, flags, None, true, both)?;
    let (v, _) = run(Input::Shader(vs), options, flags, Some(&reads), false, both)?;
    Ok((v, p))
}
