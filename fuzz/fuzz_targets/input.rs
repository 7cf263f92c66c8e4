//! Arbitrary bytes → container detection (raw, C header, hex text). Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(found) = d3dbc::input::read_any(data) {
        for f in found {
            let _ = d3dbc::Shader::decode(&f.tokens);
        }
    }
});
