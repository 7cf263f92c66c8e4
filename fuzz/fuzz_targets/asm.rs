//! Arbitrary text → preprocessor + assembler (validating, `--no-validate` or `--raw`,
//! chosen by the first byte's two low bits). Nothing may panic or hang; whatever assembles
//! must encode, decode back to the same IR, and print; errors must display (escaped).
//! The text is also split into its listings (`asm --all`): the pieces cover it in order
//! without overlap, and each isolated listing keeps the text's line count.
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
    let lines = text.split('\n').count();
    let mut next = 0;
    for l in d3dbc::asm::listings(&text) {
        assert!(l.lines.start <= l.version_line && l.version_line < l.lines.end);
        assert_eq!(l.lines.start, next);
        next = l.lines.end;
        assert_eq!(l.isolate(&text).split('\n').count(), lines);
    }
    assert!(next == 0 || next == lines);
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
