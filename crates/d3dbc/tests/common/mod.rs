//! Shared corpus access for the integration tests.
//!
//! The corpus lives outside the repository (`D3DBC_CORPUS`, default `../shared/corpus`
//! relative to the workspace root). Without it the tests skip with a message that
//! `cargo test` shows even for passing tests (`SKIPPED test_name: …`), except under CI
//! (`CI=true`), where a missing corpus is a failure.
#![allow(dead_code)]

use std::path::PathBuf;

pub use serde_json::Value;

/// The corpus directory, or `None` (after printing why) when it is absent outside CI.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("D3DBC_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.join("README.md").exists() {
        return Some(dir);
    }
    let ci = std::env::var("CI")
        .map(|v| v == "true" || v == "1")
        .unwrap_or(false);
    if ci {
        panic!(
            "corpus not found at {} (set D3DBC_CORPUS); CI=true forbids skipping",
            dir.display()
        );
    }
    skipped(&format!(
        "corpus not found at {} (set D3DBC_CORPUS to run it)",
        dir.display()
    ));
    None
}

/// Says that the running test did nothing, and why, where a reader of `cargo test`
/// sees it: straight to the process's standard error, past the test harness's output
/// capture (which would hide an `eprintln!` of a passing test), named after the test.
pub fn skipped(why: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}

/// All records of one corpus file, or `None` when the corpus is absent.
pub fn records(file: &str) -> Option<Vec<Value>> {
    let dir = corpus_dir()?;
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// Parses a JSON array of `"0x%08x"` strings.
pub fn dwords(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("dword array")
        .iter()
        .map(|s| u32::from_str_radix(s.as_str().unwrap().trim_start_matches("0x"), 16).unwrap())
        .collect()
}

/// A record's compiler listing (`disasm_text`) without the `#if 0`/`#endif` wrapper of
/// an fxc `/Fh` header, or `None`.
pub fn fxc_listing(r: &Value) -> Option<String> {
    let listing = r.get("disasm_text")?.as_str()?;
    Some(
        listing
            .lines()
            .filter(|l| !matches!(l.trim(), "#if 0" | "#endif"))
            .map(|l| format!("{l}\n"))
            .collect(),
    )
}

/// A short label for a record in failure messages.
pub fn label(r: &Value) -> String {
    let src = r["source"].as_str().unwrap_or("?");
    let name = r.get("name").and_then(|n| n.as_str()).unwrap_or("");
    format!("{src} {name}")
}

/// Every token stream of the decoder oracles: (file, label, tokens).
pub fn all_streams() -> Option<Vec<(String, String, Vec<u32>)>> {
    let mut out = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        for r in records(file)? {
            out.push((file.to_string(), label(&r), dwords(&r["dwords"])));
        }
    }
    Some(out)
}

/// A deterministic xorshift64 generator for mutation tests (same seed, same mutants on
/// every platform).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
