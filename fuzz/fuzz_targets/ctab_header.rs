//! Arbitrary text → the constant table rebuilt from a listing's header comment
//! (`asm` without `--no-ctab`). Nothing may panic or hang; a table it builds must
//! encode and parse back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = d3dbc::input::decode_text(data);
    if let Ok(Some(ctab)) = d3dbc::asm::ctab_header::ctab_from_listing(&text, "fuzz.asm") {
        let payload = ctab.encode();
        let back = d3dbc::Ctab::parse(&payload).expect("encoded CTAB must parse");
        assert_eq!(back.constants.len(), ctab.constants.len());
    }
});
