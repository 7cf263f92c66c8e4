//! Hostile effects: every truncation and thousands of byte mutations of the corpus
//! effects must give a clean error or a parse, and whatever parses must list and apply
//! without panicking.

mod common;

use d3dbc::fx::apply::Values;
use d3dbc::fx::Effect;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn exercise(data: &[u8]) {
    if let Ok(e) = Effect::parse(data) {
        let _ = e.listing();
        for t in 0..e.techniques.len() {
            for p in 0..e.techniques[t].passes.len() {
                let _ = e.apply_pass(t, p, &Values::default());
            }
        }
    }
}

fn effects() -> Option<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    for file in ["wine_fx.jsonl", "fxc_effects.jsonl"] {
        for r in common::records(file)? {
            out.push(bytes(&common::dwords(&r["dwords"])));
        }
    }
    Some(out)
}

#[test]
fn truncated_effects_fail_cleanly_with_offsets() {
    let Some(effects) = effects() else { return };
    for data in effects.iter().take(20) {
        for len in (0..data.len()).step_by(4) {
            match Effect::parse(&data[..len]) {
                Ok(e) => {
                    let _ = e.listing();
                }
                Err(e) => assert!(e.offset <= len + 8, "offset {} past {len}", e.offset),
            }
        }
    }
}

#[test]
fn mutated_effects_never_panic() {
    let Some(effects) = effects() else { return };
    let mut rng = common::Rng(0x5eed_f00d);
    for data in &effects {
        for _ in 0..150 {
            let mut m = data.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(m.len());
                m[at] = match rng.below(4) {
                    0 => 0xFF,
                    1 => 0,
                    2 => m[at] ^ (1u8 << rng.below(8)),
                    _ => rng.below(256) as u8,
                };
            }
            exercise(&m);
        }
    }
}

#[test]
fn xna_wrapper_is_accepted() {
    let Some(effects) = effects() else { return };
    let mut wrapped = vec![0xCF, 0x0B, 0xF0, 0xBC, 0x10, 0, 0, 0];
    wrapped.extend_from_slice(&[0; 8]);
    wrapped.extend_from_slice(&effects[0]);
    let e = Effect::parse(&wrapped).unwrap();
    assert_eq!(e.start, 16);
    let plain = Effect::parse(&effects[0]).unwrap();
    assert_eq!(e.listing(), plain.listing());
    let err = Effect::parse(&wrapped[..12]).unwrap_err();
    assert_eq!(err.offset, 4);
}

/// A type-description offset far outside the effect is reported inside the input, with
/// where it was read (found by the `fx` fuzz target).
#[test]
fn offsets_outside_the_effect_are_reported_where_read() {
    let mut data = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/tint.fxo"),
    )
    .unwrap();
    let table = u32::from_le_bytes(data[4..8].try_into().unwrap()) as usize;
    // The first parameter's typedef offset (after the four counts).
    let at = 8 + table + 16;
    data[at..at + 4].copy_from_slice(&0x2c00_00dcu32.to_le_bytes());
    let e = Effect::parse(&data).unwrap_err();
    assert!(e.offset <= data.len(), "{e}");
    assert!(e.what.contains(&format!("read at byte {at:#x}")), "{e}");
}
