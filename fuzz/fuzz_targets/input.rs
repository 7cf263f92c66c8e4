//! Arbitrary bytes → container detection (raw, C header, hex text; UTF-8 with or without
//! a BOM, UTF-16LE/BE) and text decoding. Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = d3dbc::input::decode_text(data);
    let _ = d3dbc::input::is_binary(data);
    if let Ok(found) = d3dbc::input::read_any(data) {
        for f in found {
            let _ = d3dbc::Shader::decode(&f.tokens);
            let _ = d3dbc::Shader::decode_prefix(&f.tokens).map(|e| e.1);
        }
    }
});
