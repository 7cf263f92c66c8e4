//! Arbitrary bytes → the XNA content-file reader (`.xnb`: header, LZX or LZ4
//! decompression, type-reader table, the effect inside), raw and behind a forced `XNB`
//! header with each compression flag. Nothing may panic, hang or allocate without
//! bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = d3dbc::input::xnb::effect_of(data);
    for flags in [0u8, 0x80, 0x40] {
        let mut x = b"XNBw\x05".to_vec();
        x.push(flags);
        x.extend_from_slice(&((data.len() + 10) as u32).to_le_bytes());
        x.extend_from_slice(data);
        if let Some(Ok(fx)) = d3dbc::input::xnb::effect_of(&x) {
            let _ = d3dbc::fx::Effect::parse(&fx);
        }
    }
});
