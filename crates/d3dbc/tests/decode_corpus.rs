//! Decoder/encoder conformance over the corpus: every stream decodes and re-encodes to the
//! same DWORDs (up to its end token); the documented bad inputs fail with the right error.

mod common;

use d3dbc::{DecodeErrorKind, Shader};

/// The corpus's documented bad inputs (README: 5 non-shader version tokens, 2 "header"
/// arrays without end token, 3 CTAB arrays whose comment length disagrees with the data,
/// 2 vs_4_0 streams), keyed by record name, with the error each must give.
fn expected_failure(name: &str) -> Option<fn(&DecodeErrorKind) -> bool> {
    Some(match name {
        "simple_fx"
        | "simple_tx"
        | "simple_7ffe"
        | "simple_7fff"
        | "fx_shader_with_ctab"
        | "vs_4_0"
        | "invalid_version" => |k| matches!(k, DecodeErrorKind::BadVersion),
        "vs_header" | "ps_header" => |k| matches!(k, DecodeErrorKind::MissingEnd),
        "ctab_matrices2" | "ctab_with_default_values" => {
            |k| matches!(k, DecodeErrorKind::CommentOverrun { .. })
        }
        // The comment is shorter than the CTAB text, so the rest of the string is
        // read as instruction tokens.
        "ctab_arrays" => |k| matches!(k, DecodeErrorKind::UnknownOpcode(_)),
        _ => return None,
    })
}

#[test]
fn corpus_round_trips() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut ok = 0;
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (file, label, tokens) in &streams {
        let name = label.rsplit(' ').next().unwrap_or("");
        if let Some(check) = expected_failure(name) {
            match Shader::decode(tokens) {
                Err(e) if check(&e.kind) => rejected += 1,
                Err(e) => failures.push(format!("{file} {label}: wrong error: {e}")),
                Ok(_) => failures.push(format!("{file} {label}: bad input was accepted")),
            }
            continue;
        }
        match Shader::decode(tokens) {
            Ok(shader) => {
                let enc = shader.encode();
                let n = enc.len();
                if tokens.len() >= n && tokens[..n] == enc[..] {
                    ok += 1;
                } else {
                    let pos = enc
                        .iter()
                        .zip(tokens.iter())
                        .position(|(a, b)| a != b)
                        .unwrap_or(n.min(tokens.len()));
                    failures.push(format!(
                        "{file} {label}: re-encoded stream differs at DWORD {pos}"
                    ));
                }
            }
            Err(e) => failures.push(format!("{file} {label}: {e}")),
        }
    }
    eprintln!(
        "decode/encode round trip: {ok} streams identical, {rejected} bad inputs rejected, of {}",
        streams.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(rejected, 12, "every documented bad input must be rejected");
}
