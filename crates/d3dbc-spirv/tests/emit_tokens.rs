//! The token-stream entry points (`emit_tokens`, `translate_tokens`: the stream decoded
//! straight into the emitter's pre-pass) against decode-then-translate: over every
//! token stream of the decoder oracles and random mutants of them, the same SPIR-V
//! words and interface, or the same error (the decoder's own for a stream that does
//! not decode), under the defaults and one more set of the option spread in rotation.
//! Shader and token translations alternate on one thread, so each refills the scan the
//! other kept.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
#[path = "../../d3dbc/tests/common/option_spread.rs"]
mod option_spread;

use d3dbc::target::Error;
use d3dbc::Shader;
use d3dbc_spirv::{TranslateOptions, Translation};

/// Decode, then translate (the reference).
fn by_shader(tokens: &[u32], o: &TranslateOptions) -> Result<Translation, Error> {
    let s = Shader::decode(tokens).map_err(Error::Decode)?;
    d3dbc_spirv::translate(&s, o)
}

/// Both paths agree on `tokens` under `o`; a description of the difference if not.
fn differs(tokens: &[u32], o: &TranslateOptions) -> Option<String> {
    let a = by_shader(tokens, o);
    let b = d3dbc_spirv::translate_tokens(tokens, o);
    let words = d3dbc_spirv::emit_tokens(tokens, o);
    match (&a, &b) {
        (Ok(a), Ok(b)) if a.words == b.words && a.interface == b.interface => {
            (words.as_ref().ok() != Some(&a.words)).then(|| "emit_tokens differs".into())
        }
        (Err(a), Err(b)) if a == b => {
            (words.as_ref().err() != Some(a)).then(|| "emit_tokens' error differs".into())
        }
        (Ok(_), Ok(_)) => Some("words or interface differ".into()),
        _ => Some(format!(
            "by shader {:?}, by tokens {:?}",
            a.map(|t| t.words.len()),
            b.map(|t| t.words.len())
        )),
    }
}

#[test]
fn tokens_translate_as_the_decoded_shader_does() {
    let Some(streams) = common::all_streams() else {
        common::skipped("corpus not found");
        return;
    };
    let opts = option_spread::all();
    let mut rng = common::Rng(0x5eed_70c3);
    let (mut checked, mut translated, mut refused) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (i, (file, label, tokens)) in streams.iter().enumerate() {
        // The stream itself, a truncation and a one-DWORD mutant.
        let mut cases = vec![tokens.clone()];
        if tokens.len() > 2 {
            cases.push(tokens[..1 + rng.below(tokens.len() - 1)].to_vec());
            let mut m = tokens.clone();
            let at = 1 + rng.below(tokens.len() - 1);
            m[at] ^= 1 << rng.below(32);
            cases.push(m);
        }
        for (k, case) in cases.iter().enumerate() {
            for o in [0, option_spread::rotation(i)] {
                checked += 1;
                match by_shader(case, &opts[o]) {
                    Ok(_) => translated += 1,
                    Err(_) => refused += 1,
                }
                if let Some(d) = differs(case, &opts[o]) {
                    failures.push(format!("{file} {label} case {k} options {o}: {d}"));
                }
            }
        }
    }
    eprintln!(
        "{} streams: {checked} translations compared ({translated} translated, {refused} refused), {} differ",
        streams.len(),
        failures.len()
    );
    for f in failures.iter().take(10) {
        eprintln!("FAIL {f}");
    }
    assert!(streams.len() > 400, "only {} streams", streams.len());
    assert!(translated > 400 && refused > 0);
    assert!(failures.is_empty());
}
