//! Printer and assembler agree beyond the corpus: deterministic mutants of every corpus
//! stream (one token field randomised, or the version changed) that the validator
//! accepts must come back byte for byte through `asm(dis(x))`. Whatever the runtime
//! accepts, `dis` must print in a form `asm` reads back exactly.

mod common;

use common::Rng;

use d3dbc::Severity;
use d3dbc::{asm, print, validate, Shader};

const VERSIONS: &[u32] = &[
    0xFFFE0101, 0xFFFE0200, 0xFFFE0201, 0xFFFE0300, 0xFFFE03FF, 0xFFFF0101, 0xFFFF0102, 0xFFFF0103,
    0xFFFF0104, 0xFFFF0200, 0xFFFF0201, 0xFFFF0300,
];

/// One field of a parameter token (register number, swizzle/mask, modifier/shift, result
/// modifiers) or of an instruction token (controls, predicate, co-issue).
fn mutate(tok: u32, rng: &mut Rng) -> u32 {
    let fields: &[u32] = if tok & 0x8000_0000 != 0 {
        &[
            0x0000_000F,
            0x00FF_0000,
            0x0F00_0000,
            0x00F0_0000,
            0x000F_0000,
        ]
    } else {
        &[0x00FF_0000, 0x1000_0000, 0x4000_0000]
    };
    let f = fields[rng.below(fields.len())];
    (tok & !f) | (rng.next() as u32 & f)
}

/// Fields the listing shows whatever the version: register numbers (`r36`), source
/// modifiers (`r1_abs`), result modifiers and shifts (`mov_x4_sat`), co-issue (`+`).
fn mutate_visible(tok: u32, rng: &mut Rng) -> u32 {
    let fields: &[u32] = if tok & 0x8000_0000 != 0 {
        &[0x0000_003F, 0x0F00_0000, 0x00F0_0000]
    } else {
        &[0x4000_0000]
    };
    let f = fields[rng.below(fields.len())];
    (tok & !f) | (rng.next() as u32 & f)
}

#[test]
fn valid_mutants_survive_dis_then_asm() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let (tried, valid, failures) = mutants_through_dis_asm(&streams, true, mutate);
    eprintln!(
        "mutants: {tried} made, {valid} valid, {} failed asm(dis(x)) == x",
        failures.len()
    );
    for f in failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(valid > 1000, "too few valid mutants: {valid}");
    assert!(
        failures.is_empty(),
        "{} mutants do not round-trip",
        failures.len()
    );
}

/// With `asm --raw`, everything `dis` prints reassembles to the same tokens, even
/// for shaders the runtime rejects (`r36` in vs_2_0, co-issue in ps_3_0, `_abs` in
/// vs_2_0): every decodable mutant, valid or not.
#[test]
fn every_decodable_mutant_survives_dis_then_asm_raw() {
    // Was 247 with the first raw-mode parser: every visible mutant now comes back.
    raw_ratchet(mutate_visible, 0);
}

/// The same with every field [`mutate`] touches (controls, usages, empty write masks…),
/// whether or not the version shows it.
#[test]
fn every_field_mutant_survives_dis_then_asm_raw() {
    // Known gap (a ratchet): `texld` control values other than 0 (`texld`), 1 (`texldp`)
    // and 2 (`texldb`) print as plain `texld` (the listing has no spelling for them).
    raw_ratchet(mutate, 1);
}

/// Mutants (by `mutator`) whose change shows in the listing, through `dis` and
/// `asm --raw`: at most `known` may fail (a ratchet: lower it as gaps close).
fn raw_ratchet(mutator: fn(u32, &mut Rng) -> u32, known: usize) {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let (tried, decoded, failures) = mutants_through_dis_asm(&streams, false, mutator);
    eprintln!(
        "mutants: {tried} made, {decoded} with a visible change, {} failed asm --raw (dis(x)) == x",
        failures.len()
    );
    for f in failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(decoded > 4000, "too few visible mutants: {decoded}");
    assert!(
        failures.len() <= known,
        "{} mutants do not round-trip (was {known})",
        failures.len()
    );
}

/// Mutates every stream `24` times; returns (mutants made, mutants kept, failures).
/// Kept: those that decode (and, with `require_valid`, pass the validator, assembled
/// with validation; otherwise assembled raw, `asm --raw`).
fn mutants_through_dis_asm(
    streams: &[(String, String, Vec<u32>)],
    require_valid: bool,
    mutator: fn(u32, &mut Rng) -> u32,
) -> (usize, usize, Vec<String>) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut tried, mut valid) = (0, 0);
    let mut failures = Vec::new();
    for round in 0..24 {
        for (file, label, tokens) in streams {
            if Shader::decode(tokens).is_err() || tokens.len() < 3 {
                continue;
            }
            let mut t = tokens.clone();
            if round % 4 == 3 {
                t[0] = VERSIONS[rng.below(VERSIONS.len())];
            } else {
                let at = 1 + rng.below(t.len() - 1);
                t[at] = mutator(t[at], &mut rng);
            }
            tried += 1;
            let Ok(shader) = Shader::decode(&t) else {
                continue;
            };
            if require_valid
                && validate::validate(&shader)
                    .iter()
                    .any(|f| f.severity == Severity::Error)
            {
                continue;
            }
            // NaN payloads: every NaN prints as `1.#QNAN`/`-1.#IND` (as Microsoft's
            // runtime prints them), so only the two canonical NaNs can come back.
            let odd_nan = shader.instructions().any(|i| {
                i.opcode == d3dbc::Opcode::Def
                    && i.imm
                        .iter()
                        .any(|&b| f32::from_bits(b).is_nan() && b & 0x7FFF_FFFF != 0x7FC0_0000)
            });
            if odd_nan {
                continue;
            }
            let text = print::to_string(&shader);
            if !require_valid {
                // A change the listing does not show (a shift on a vs destination, stray
                // modifier bits on a `def`) cannot come back through text: not counted.
                let original = Shader::decode(tokens).map(|s| print::to_string(&s));
                if original.as_deref() == Ok(text.as_str()) {
                    continue;
                }
            }
            valid += 1;
            let opts = asm::Options {
                file_name: "mutant.asm".into(),
                raw: !require_valid,
                ..Default::default()
            };
            match asm::assemble(&text, &opts) {
                Ok(back) if back.encode() == shader.without_comments().encode() => {}
                Ok(back) => {
                    let (a, b) = (shader.without_comments().encode(), back.encode());
                    let i = a
                        .iter()
                        .zip(&b)
                        .position(|(x, y)| x != y)
                        .unwrap_or(a.len().min(b.len()));
                    // The instruction holding DWORD i, as printed.
                    let plain = shader.without_comments();
                    let mut at = 1;
                    let mut ins = String::new();
                    for it in &plain.items {
                        if let d3dbc::Item::Instruction(x) = it {
                            let n = 1 + x.operand_len(plain.version);
                            if (at..at + n).contains(&i) {
                                print::print_instruction(x, plain.version, &mut ins);
                            }
                            at += n;
                        }
                    }
                    failures.push(format!(
                        "{file} {label} r{round} {}: DWORD {i}: {:08x?} vs {:08x?} in [{}]",
                        shader.version,
                        a.get(i),
                        b.get(i),
                        ins
                    ));
                }
                Err(d) => failures.push(format!("{file} {label} r{round}: {}", d.0[0])),
            }
        }
    }
    (tried, valid, failures)
}
