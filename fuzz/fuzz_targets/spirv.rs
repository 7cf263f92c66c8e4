//! Arbitrary bytes → decode → validate → the direct SPIR-V emitter (`d3dbc-spirv`). The
//! first 4 bytes choose the translation options; the rest is the token stream. A
//! validator-accepted shader must emit (an `Unsupported` error names a documented gap,
//! anything else is a bug), the words must be a well-formed SPIR-V module (header,
//! instruction lengths that tile the module, every id below the bound) that naga's
//! SPIR-V front end parses (without the float-controls declarations, which it does not
//! read), and every 64th output also passes `spirv-val` when it is
//! installed. The token entry point agrees with decode-then-emit on every input:
//! `emit_tokens` gives a valid shader's words, and a stream that does not decode is its
//! `Error::Decode` with the decoder's own error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

static COUNT: AtomicUsize = AtomicUsize::new(0);

/// Header and instruction framing; the first problem found.
fn well_formed(w: &[u32]) -> Result<(), String> {
    if w.len() < 5 || w[0] != 0x0723_0203 || w[1] != 0x0001_0000 {
        return Err("bad header".into());
    }
    let bound = w[3];
    let mut i = 5;
    while i < w.len() {
        let n = (w[i] >> 16) as usize;
        if n == 0 || i + n > w.len() {
            return Err(format!("word {i}: bad instruction length {n}"));
        }
        i += n;
    }
    if bound == 0 || bound > 1 << 22 {
        return Err(format!("bound {bound}"));
    }
    Ok(())
}

/// A stream (after the 4 option bytes) that does not decode is `emit_tokens`' decode
/// error, the decoder's own.
fn decode_errors_agree(data: &[u8]) {
    let Some(body) = data.get(4..) else {
        return;
    };
    let tokens: Vec<u32> = body
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Err(e) = d3dbc::Shader::decode(&tokens) {
        let got = d3dbc_spirv::emit_tokens(&tokens, &Default::default());
        assert_eq!(got, Err(d3dbc_spirv::Error::Decode(e)));
    }
}

fuzz_target!(|data: &[u8]| {
    decode_errors_agree(data);
    let Some((head, tokens, shader)) = common::valid_shader(data, 4) else {
        return;
    };
    let opts = common::translate_options([head[0], head[1], head[2], head[3]]);
    let words = match d3dbc_spirv::emit(&shader, &opts) {
        Ok(w) => w,
        Err(d3dbc_spirv::Error::Unsupported { .. }) => return,
        Err(e) => panic!(
            "valid shader did not emit: {e}\n{}",
            d3dbc::print::to_string(&shader)
        ),
    };
    assert!(
        d3dbc_spirv::emit_tokens(&tokens, &opts).as_ref() == Ok(&words),
        "emit_tokens differs from emit\n{}",
        d3dbc::print::to_string(&shader)
    );
    if let Err(e) = well_formed(&words) {
        panic!("malformed SPIR-V: {e}\n{}", d3dbc::print::to_string(&shader));
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // naga's SPIR-V front end reads no SPV_KHR_float_controls (`DenormPreserve`,
    // `DenormFlushToZero`): with `float_controls` on, it parses the module emitted
    // without them, which differs only in those declarations; spirv-val below checks
    // the module as emitted.
    let for_naga = if opts.pipeline.float_controls {
        let mut plain = opts.clone();
        plain.pipeline.float_controls = false;
        let w = d3dbc_spirv::emit(&shader, &plain).expect("emits without float controls");
        w.iter().flat_map(|w| w.to_le_bytes()).collect()
    } else {
        bytes.clone()
    };
    if let Err(e) = naga::front::spv::parse_u8_slice(&for_naga, &Default::default()) {
        panic!(
            "naga does not parse the SPIR-V: {e}\n{}",
            d3dbc::print::to_string(&shader)
        );
    }
    if COUNT.fetch_add(1, Ordering::Relaxed) % 64 == 0 {
        let f = std::env::temp_dir().join(format!("d3dbc-fuzz-spirv-{}.spv", std::process::id()));
        if std::fs::write(&f, &bytes).is_ok() {
            if let Ok(o) = std::process::Command::new("spirv-val")
                .args(["--target-env", "vulkan1.0"])
                .arg(&f)
                .output()
            {
                assert!(
                    o.status.success(),
                    "spirv-val: {}\n{}",
                    String::from_utf8_lossy(&o.stderr),
                    d3dbc::print::to_string(&shader)
                );
            }
        }
    }
});
