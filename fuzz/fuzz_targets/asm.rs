//! Arbitrary text → preprocessor + assembler (strict, or lenient as `asm --no-validate`
//! runs it, chosen by the first byte). Nothing may panic or hang; whatever assembles
//! must encode, decode back to the same IR, and print; errors must display (escaped).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let lenient = data.first().is_some_and(|b| b & 1 == 1);
    let text = d3dbc::input::decode_text(data);
    let opts = d3dbc::asm::Options {
        file_name: "fuzz.asm".into(),
        no_validate: lenient,
        lenient,
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
