//! Differential test of the validator: the exact findings (code, severity, item, offset,
//! message, order) over every corpus stream and several thousand deterministic mutants of
//! them must match the findings recorded in `tests/data/validate_findings.txt`.
//!
//! The data file holds one 32-bit FNV-1a hash of the findings per input (derived data,
//! no corpus content). It was written by the validator as of the commit that added this
//! test, before the validator was optimised, so any change in output is caught. After an
//! intended change of the rules, rewrite it with `D3DBC_BLESS=1 cargo test -p d3dbc
//! --test validate_differential` and say why in the commit.

mod common;

use common::Rng;

use d3dbc::diag::Severity;
use d3dbc::ir::Item;
use d3dbc::validate::{validate, Finding};
use d3dbc::Shader;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/validate_findings.txt"
);

/// Every version token the mutants switch to (both kinds, all models incl. `_x`, `_sw`).
const VERSIONS: &[u32] = &[
    0xFFFE0101, 0xFFFE0200, 0xFFFE0201, 0xFFFE0300, 0xFFFE02FF, 0xFFFE03FF, 0xFFFF0101, 0xFFFF0102,
    0xFFFF0103, 0xFFFF0104, 0xFFFF0200, 0xFFFF0201, 0xFFFF0300, 0xFFFF02FF, 0xFFFF03FF,
];

/// Randomises one bit field of a token: for parameter tokens (bit 31 set) the register
/// type, number, swizzle/mask, modifier or relative bit; for instruction tokens the
/// controls, opcode, predicate or co-issue bit.
fn randomize_field(tok: u32, rng: &mut Rng) -> u32 {
    let r = rng.next() as u32;
    let fields: &[u32] = if tok & 0x8000_0000 != 0 {
        &[
            0x7000_1800, // register type
            0x0000_07FF, // register number
            0x0000_0007, // low register number
            0x00FF_0000, // swizzle / write mask + result modifiers
            0x0F00_0000, // source modifier / shift
            0x0000_2000, // relative addressing
        ]
    } else {
        &[
            0x00FF_0000, // controls
            0x0000_00FF, // opcode
            0x1000_0000, // predicated
            0x4000_0000, // co-issue
        ]
    };
    let f = fields[(r as usize >> 3) % fields.len()];
    (tok & !f) | (rng.next() as u32 & f)
}

/// The corpus streams that decode: (label, tokens).
fn corpus() -> Option<Vec<(String, Vec<u32>)>> {
    let mut out: Vec<(String, Vec<u32>)> = common::all_streams()?
        .into_iter()
        .map(|(f, l, t)| (format!("{f} {l}"), t))
        .collect();
    for r in common::records("wine_asm.jsonl")? {
        if let Some(exp) = r.get("expected").filter(|e| e.is_array()) {
            let src = r["source"].as_str().unwrap_or("?");
            out.push((
                format!("wine_asm.jsonl {src} #{}", r["index"]),
                common::dwords(exp),
            ));
        }
    }
    out.retain(|(_, t)| Shader::decode(t).is_ok());
    Some(out)
}

/// Every input of the test, in a fixed order: the corpus, then its mutants.
fn inputs() -> Option<Vec<(String, Shader)>> {
    let corpus = corpus()?;
    let mut out: Vec<(String, Shader)> = corpus
        .iter()
        .map(|(l, t)| (l.clone(), Shader::decode(t).unwrap()))
        .collect();
    let base: Vec<Shader> = out.iter().map(|x| x.1.clone()).collect();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for round in 0..40 {
        for (i, (label, tokens)) in corpus.iter().enumerate() {
            if tokens.len() < 3 {
                continue;
            }
            let kind = (round + i) % 8;
            let mut t = tokens.clone();
            let n = t.len();
            let shader = match kind {
                0 => {
                    for _ in 0..1 + rng.below(3) {
                        let at = 1 + rng.below(n - 1);
                        t[at] ^= 1 << rng.below(32);
                    }
                    Shader::decode(&t).ok()
                }
                1 | 6 => {
                    if kind == 6 {
                        t[0] = VERSIONS[rng.below(VERSIONS.len())];
                    }
                    for _ in 0..1 + rng.below(2) {
                        let at = 1 + rng.below(n - 1);
                        t[at] = randomize_field(t[at], &mut rng);
                    }
                    Shader::decode(&t).ok()
                }
                2 => {
                    t[0] = VERSIONS[rng.below(VERSIONS.len())];
                    Shader::decode(&t).ok()
                }
                3 => {
                    t.truncate(1 + rng.below(n - 1));
                    t.push(0x0000_FFFF);
                    Shader::decode(&t).ok()
                }
                4 => {
                    // Splice a run of items from another shader of the same version.
                    let mut s = base[i].clone();
                    let donors: Vec<&Shader> = base
                        .iter()
                        .filter(|d| d.version == s.version && !d.items.is_empty())
                        .collect();
                    let d = donors[rng.below(donors.len())];
                    let from = rng.below(d.items.len());
                    let len = 1 + rng.below((d.items.len() - from).min(8));
                    let at = rng.below(s.items.len() + 1);
                    let run: Vec<Item> = d.items[from..from + len].to_vec();
                    s.items.splice(at..at, run);
                    Some(s)
                }
                7 => {
                    // The whole program two to four times over (slot limits, nesting,
                    // second phase, labels defined twice).
                    let mut s = base[i].clone();
                    let items = s.items.clone();
                    for _ in 0..1 + rng.below(3) {
                        s.items.extend(items.iter().cloned());
                    }
                    Some(s)
                }
                _ => {
                    // Remove one item and swap two others.
                    let mut s = base[i].clone();
                    if !s.items.is_empty() {
                        let k = rng.below(s.items.len());
                        s.items.remove(k);
                    }
                    if s.items.len() >= 2 {
                        let a = rng.below(s.items.len());
                        let b = rng.below(s.items.len());
                        s.items.swap(a, b);
                    }
                    Some(s)
                }
            };
            if let Some(s) = shader {
                out.push((format!("{label} mutant r{round} k{kind}"), s));
            }
        }
    }
    Some(out)
}

/// FNV-1a over the findings' fields (stable across Rust versions and platforms).
fn hash(found: &[Finding]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
    };
    for f in found {
        eat(f.code.as_bytes());
        eat(&[match f.severity {
            Severity::Error => 1,
            Severity::Warning => 2,
        }]);
        eat(&(f.item as u64).to_le_bytes());
        eat(&(f.offset as u64).to_le_bytes());
        eat(f.message.as_bytes());
        eat(&[0xFF]);
    }
    h
}

#[test]
fn findings_match_the_recorded_validator() {
    let Some(inputs) = inputs() else {
        return;
    };
    let mut codes = std::collections::BTreeMap::<&str, usize>::new();
    let mut with_findings = 0;
    let hashes: Vec<u32> = inputs
        .iter()
        .map(|(_, s)| {
            let f = validate(s);
            with_findings += usize::from(!f.is_empty());
            for x in &f {
                *codes.entry(x.code).or_default() += 1;
            }
            hash(&f)
        })
        .collect();
    let corpus_n = inputs.iter().filter(|x| !x.0.contains(" mutant ")).count();
    eprintln!(
        "differential: {} inputs ({corpus_n} corpus streams, {} mutants), {with_findings} with findings, {} distinct codes: {codes:?}",
        inputs.len(),
        inputs.len() - corpus_n,
        codes.len()
    );
    if std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1") {
        let mut text = String::from(
            "# FNV-1a 32 of validate() findings per input of tests/validate_differential.rs\n",
        );
        for h in &hashes {
            text.push_str(&format!("{h:08x}\n"));
        }
        std::fs::write(DATA, text).unwrap();
        return;
    }
    let want: Vec<u32> = std::fs::read_to_string(DATA)
        .expect("recorded findings (D3DBC_BLESS=1 writes them)")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect();
    assert_eq!(
        want.len(),
        inputs.len(),
        "input set changed (decoder or corpus changed?)"
    );
    let bad: Vec<String> = inputs
        .iter()
        .zip(hashes.iter().zip(&want))
        .filter(|(_, (got, want))| got != want)
        .take(20)
        .map(|((label, s), _)| {
            let f: Vec<String> = validate(s)
                .iter()
                .map(|f| {
                    format!(
                        "{} {:?} #{} @{}: {}",
                        f.code, f.severity, f.item, f.offset, f.message
                    )
                })
                .collect();
            format!("{label} ({}): now [{}]", s.version, f.join("; "))
        })
        .collect();
    assert!(bad.is_empty(), "findings changed:\n{}", bad.join("\n"));
    assert!(inputs.len() - corpus_n > 5000, "too few mutants");
    assert_eq!(
        codes.len(),
        d3dbc::validate::rules().len(),
        "the inputs must reach every rule: {codes:?}"
    );
}
