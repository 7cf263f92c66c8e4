//! Every corpus record that holds a token stream (`dwords` of `binaries.jsonl`,
//! `wine_d3d9_blobs.jsonl`, `vkd3d_d3dbc.jsonl`, `fxc10_listings.jsonl`, in that order:
//! 483 records, 471 of them shaders that decode) under `D3DBC_CORPUS` (default
//! `../shared/corpus`). Empty when the corpus is absent. Included by path from the benches
//! and examples that measure over the whole set (`d3dbc-bind`'s `dis_corpus`,
//! `d3dbc-peers`' `spirv_speed`).

use std::path::PathBuf;

/// The corpus directory the records are read from.
#[allow(dead_code)]
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// Every record's DWORDs, decodable or not, in file order.
pub fn load() -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
        "fxc10_listings.jsonl",
    ] {
        let Ok(text) = std::fs::read_to_string(corpus_dir().join(file)) else {
            continue;
        };
        for line in text.lines() {
            let Ok(r) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let Some(words) = r["dwords"].as_array() else {
                continue;
            };
            let dw: Vec<u32> = words
                .iter()
                .filter_map(|w| u32::from_str_radix(w.as_str()?.trim_start_matches("0x"), 16).ok())
                .collect();
            if !dw.is_empty() {
                out.push(dw);
            }
        }
    }
    out
}
