//! Arbitrary text → the effect assembler (alone, and against a real effect as
//! `--fx-from`), the preshader assembler and the shader-listing assembler with a
//! preshader block. Nothing may panic, hang or allocate without bound; errors are
//! located diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;

static TINT: &[u8] = include_bytes!("../../examples/tint.fxo");

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let opts = d3dbc::asm::Options::default();
    if let Ok(fx) = d3dbc::fx::asm::assemble_effect(&text, "f", None, &opts) {
        // What it builds parses back.
        d3dbc::fx::Effect::parse(&fx).expect("an assembled effect parses");
    }
    if let Ok(fx) = d3dbc::fx::asm::assemble_effect(&text, "f", Some(TINT), &opts) {
        d3dbc::fx::Effect::parse(&fx).expect("a repacked effect parses");
    }
    let _ = d3dbc::fx::preshader_asm::assemble_preshader(&text, "f");
    let _ = d3dbc::fx::asm::assemble_shader_listing(&text, "f", None, &opts);
});
