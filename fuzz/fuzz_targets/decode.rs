//! Arbitrary bytes → decoder → (printer, streaming printer, validator, encoder). Nothing
//! may panic, a stream that decodes must re-encode to the same DWORDs and print, and the
//! streaming printer and the token printer must agree with the IR printer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // Give the fuzzer a head start: most inputs get a valid version token.
    let mut tokens = words.clone();
    if let Some(first) = tokens.first_mut() {
        if d3dbc::Version::from_token(*first).is_none() {
            let versions = [
                0xFFFE0101u32,
                0xFFFE0200,
                0xFFFE0201,
                0xFFFE0300,
                0xFFFF0101,
                0xFFFF0103,
                0xFFFF0104,
                0xFFFF0200,
                0xFFFF0201,
                0xFFFF0300,
            ];
            *first = versions[(*first as usize) % versions.len()];
        }
    }
    for stream in [&words, &tokens] {
        let mut streamed = String::new();
        let stream_ok =
            d3dbc::print::print_tokens(stream, &Default::default(), &mut streamed).is_ok();
        // The token printer (`print_tokens`' path for plain listings) alone: it may
        // decline a stream, but what it takes decodes and prints the same.
        let mut direct = String::new();
        let direct_ok = d3dbc::print::print_tokens_direct(stream, &Default::default(), &mut direct);
        let decoded = d3dbc::Shader::decode(stream);
        assert!(
            !direct_ok || decoded.is_ok(),
            "the token printer took a bad stream"
        );
        if direct_ok {
            assert_eq!(direct, streamed, "token printer differs");
        } else {
            assert!(direct.is_empty(), "a declined stream left text");
        }
        if let Ok(shader) = decoded {
            let enc = shader.encode();
            assert_eq!(
                &stream[..enc.len()],
                &enc[..],
                "re-encoding changed the stream"
            );
            assert!(stream_ok, "print_tokens rejected a stream that decodes");
            assert_eq!(
                d3dbc::print::to_string(&shader),
                streamed,
                "streaming printer differs"
            );
            let _ = d3dbc::validate::validate(&shader);
            if let Some(ctab) = shader.ctab() {
                let _ = ctab;
            }
        }
    }
});
