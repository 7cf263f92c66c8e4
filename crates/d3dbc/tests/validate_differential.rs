//! Differential test of the validator: the exact findings (code, severity, item, offset,
//! message, order) over every corpus stream and several thousand deterministic mutants of
//! them must match the findings recorded in `tests/data/validate_findings.tsv`.
//!
//! The data file holds, per input label, the findings in readable form (code, severity,
//! item, offset, operand) and a 32-bit FNV-1a hash of their messages (derived data, no
//! corpus content); a failure shows the old and the new line. After an intended change
//! of the rules, rewrite it with `D3DBC_BLESS=1 cargo test -p d3dbc --test
//! validate_differential` and say why in the commit.

mod common;

use common::Rng;

use d3dbc::ir::Item;
use d3dbc::validate::{validate, Finding};
use d3dbc::Severity;
use d3dbc::Shader;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/validate_findings.tsv"
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

/// FNV-1a over the findings' messages (stable across Rust versions and platforms).
fn message_hash(found: &[Finding]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for f in found {
        for &b in f.message.as_bytes().iter().chain([&0xFF]) {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// One input's findings as one readable line: `CODE/e|w#item@offset` (`.N` when the
/// finding names operand N) per finding, then a hash of the messages.
fn record(found: &[Finding]) -> String {
    let mut s = String::new();
    for f in found {
        let sev = match f.severity {
            Severity::Error => 'e',
            Severity::Warning => 'w',
        };
        s.push_str(&format!("{}/{sev}#{}@{}", f.code, f.item, f.offset));
        if let Some(k) = f.operand {
            s.push_str(&format!(".{k}"));
        }
        s.push(' ');
    }
    s.push_str(&format!("~{:08x}", message_hash(found)));
    s
}

#[test]
fn findings_match_the_recorded_validator() {
    let Some(inputs) = inputs() else {
        return;
    };
    let mut codes = std::collections::BTreeMap::<&str, usize>::new();
    let mut with_findings = 0;
    // Input label (made unique by a `#n` suffix) -> findings line; inputs without
    // findings are not recorded.
    let mut got = std::collections::BTreeMap::<String, String>::new();
    let mut seen = std::collections::HashMap::<&str, usize>::new();
    for (label, s) in &inputs {
        let f = validate(s);
        let n = seen.entry(label).or_default();
        *n += 1;
        if f.is_empty() {
            continue;
        }
        with_findings += 1;
        for x in &f {
            *codes.entry(x.code).or_default() += 1;
        }
        let key = if *n > 1 {
            format!("{label} #{n}")
        } else {
            label.clone()
        };
        got.insert(key, record(&f));
    }
    let corpus_n = inputs.iter().filter(|x| !x.0.contains(" mutant ")).count();
    eprintln!(
        "differential: {} inputs ({corpus_n} corpus streams, {} mutants), {with_findings} with findings, {} distinct codes: {codes:?}",
        inputs.len(),
        inputs.len() - corpus_n,
        codes.len()
    );
    if std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1") {
        let mut text = format!(
            "# validate() findings of tests/validate_differential.rs: {} inputs, those with\n\
             # findings listed as `label<TAB>CODE/severity#item@offset[.operand] ... ~messagehash`\n",
            inputs.len()
        );
        for (label, line) in &got {
            text.push_str(&format!("{label}\t{line}\n"));
        }
        std::fs::write(DATA, text).unwrap();
        return;
    }
    let recorded =
        std::fs::read_to_string(DATA).expect("recorded findings (D3DBC_BLESS=1 writes them)");
    let want: std::collections::BTreeMap<String, String> = recorded
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let none = "(no findings)".to_string();
    let keys: std::collections::BTreeSet<&String> = got.keys().chain(want.keys()).collect();
    let bad: Vec<String> = keys
        .into_iter()
        .filter(|k| got.get(*k) != want.get(*k))
        .take(20)
        .map(|k| {
            format!(
                "{k}\n    old: {}\n    new: {}",
                want.get(k).unwrap_or(&none),
                got.get(k).unwrap_or(&none)
            )
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
