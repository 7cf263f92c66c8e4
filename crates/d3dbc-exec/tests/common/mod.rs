//! Corpus access for the integration tests (same rules as the core crate's helper:
//! `D3DBC_CORPUS`, visible skip outside CI, failure under `CI=true`).
#![allow(dead_code)]

use std::path::PathBuf;

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
    eprintln!(
        "SKIPPED: corpus not found at {} (set D3DBC_CORPUS to run corpus tests)",
        dir.display()
    );
    None
}
