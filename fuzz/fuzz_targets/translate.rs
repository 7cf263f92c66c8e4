//! Arbitrary bytes → decode → validate → translate → every back end. The first 4 bytes
//! choose the translation options (device semantics and pipeline state: the code paths
//! they select); the rest is the token stream. A validator-accepted shader must lower
//! to a module naga's validator accepts, and every back end (SPIR-V, WGSL, GLSL, MSL,
//! HLSL) must write it: any error there is a translator bug, so it fails the run.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

use d3dbc_naga::Target;

fuzz_target!(|data: &[u8]| {
    let Some((head, _, shader)) = common::valid_shader(data, 4) else {
        return;
    };
    let opts = common::translate_options([head[0], head[1], head[2], head[3]]);
    let t = match d3dbc_naga::translate(&shader, &opts) {
        Ok(t) => t,
        Err(e) => panic!(
            "valid shader did not translate: {e}\n{}",
            d3dbc::print::to_string(&shader)
        ),
    };
    for target in [
        Target::Spirv,
        Target::Wgsl,
        Target::Glsl,
        Target::Msl,
        Target::Hlsl,
    ] {
        if let Err(e) = t.emit(target) {
            panic!("{target}: {e}\n{}", d3dbc::print::to_string(&shader));
        }
    }
});
