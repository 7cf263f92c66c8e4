//! The real binaries the translation benches share (`binaries.jsonl` under
//! `D3DBC_CORPUS`, default `../shared/corpus`): every record's token stream that decodes,
//! with its decoded shader. Empty when the corpus is absent. Included by path from the
//! benches of `d3dbc-naga`, `d3dbc-spirv` and `d3dbc-peers`.

use std::path::PathBuf;

use d3dbc::Shader;

/// `(tokens, shader)` for every decodable record of `binaries.jsonl`, in file order.
pub fn load() -> Vec<(Vec<u32>, Shader)> {
    let dir = std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let data = std::fs::read_to_string(dir.join("binaries.jsonl")).unwrap_or_default();
    let mut out = Vec::new();
    for line in data.lines() {
        let Ok(r) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let tokens: Vec<u32> = r["dwords"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| {
                        u32::from_str_radix(s.as_str()?.trim_start_matches("0x"), 16).ok()
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Ok(s) = Shader::decode(&tokens) {
            out.push((tokens, s));
        }
    }
    out
}
