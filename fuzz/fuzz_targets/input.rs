//! Arbitrary bytes → the one input reader every verb uses: container detection (raw,
//! bgfx shader binaries of every layout, the headerless 2012 one, C header, hex text;
//! UTF-8 with or without a BOM, UTF-16LE/BE), naming of the formats d3dbc does not read,
//! the `rip` hint, and the report `validate`/`run`/`translate` build from it. Nothing may
//! panic; a bgfx container's tokens are exactly its code bytes; every error has words.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = d3dbc::input::decode_text(data);
    let _ = d3dbc::input::is_binary(data);
    let _ = d3dbc::input::sniff::what_is(data);
    if let Ok(b) = d3dbc::input::bgfx::parse(data) {
        assert!(b.code_offset + b.code_size <= data.len());
        let _ = b.comment();
    }
    let _ = d3dbc::input::bgfx::parse_headerless(data);
    match d3dbc::input::read_any(data) {
        Ok(found) => {
            for f in found {
                if let Some(d3dbc::input::Container::Bgfx(b)) = &f.container {
                    let code = &data[b.code_offset..b.code_offset + b.code_size];
                    assert_eq!(code.len(), f.tokens.len() * 4);
                    assert!(code
                        .chunks_exact(4)
                        .zip(&f.tokens)
                        .all(|(c, t)| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) == *t));
                }
                let _ = d3dbc::Shader::decode(&f.tokens);
                let _ = d3dbc::Shader::decode_prefix(&f.tokens).map(|e| e.1);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if data.len() <= 4096 {
        let _ = d3dbc::report::check(data, "fuzz");
    }
});
