//! Arbitrary text → preprocessor + assembler. Nothing may panic or hang; whatever
//! assembles must encode, decode back to the same IR, and print.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let opts = d3dbc::asm::Options { file_name: "fuzz.asm".into(), ..Default::default() };
    if let Ok(shader) = d3dbc::asm::assemble(&text, &opts) {
        let tokens = shader.encode();
        let back = d3dbc::Shader::decode(&tokens).expect("assembled shader must decode");
        assert_eq!(back.encode(), tokens);
        let _ = d3dbc::print::to_string(&back);
    }
});
