//! Arbitrary text → preprocessor + assembler (validating, `--no-validate` or `--raw`,
//! chosen by the first byte's two low bits). Nothing may panic or hang; whatever assembles
//! must encode, decode back to the same IR, and print; errors must display (escaped).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mode = data.first().map_or(0, |b| b & 3);
    let text = d3dbc::input::decode_text(data);
    let opts = d3dbc::asm::Options {
        file_name: "fuzz.asm".into(),
        no_validate: mode == 1,
        raw: mode >= 2,
        ..Default::default()
    };
    match d3dbc::asm::assemble(&text, &opts) {
        Ok(shader) => {
            let tokens = shader.encode();
            let back = d3dbc::Shader::decode(&tokens).expect("assembled shader must decode");
            assert_eq!(back.encode(), tokens);
            let _ = d3dbc::print::to_string(&back);
        }
        Err(e) => {
            let shown = e.to_string();
            assert!(!shown.contains('\u{1b}'), "raw ESC in a diagnostic");
        }
    }
});
