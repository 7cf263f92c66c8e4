//! Golden outputs of the direct emitter: the snapshot cases the naga path keeps goldens
//! for (every `crates/d3dbc-naga/tests/out/spv/NAME.spv.hex`, so both back ends cover
//! the same hand-made shaders: declarations, flow control, modifiers, arithmetic, the
//! ps_1_x texture instructions, both stages) are emitted under the default options and
//! disassembled with rspirv into `tests/out/spv-direct/NAME.spvasm`, compared byte for
//! byte. The listing is the words' text (rspirv is pinned in `Cargo.lock`), so a review
//! of a change reads instructions, not hex.
//!
//! After an intended change, rewrite them with
//! `D3DBC_BLESS=1 cargo test -p d3dbc-spirv --test emit_snapshots` and review the diff.

use std::path::Path;

use d3dbc::Shader;
use rspirv::binary::Disassemble;

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../d3dbc/tests/snapshots");
const NAGA_GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../d3dbc-naga/tests/out/spv");
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/out/spv-direct");

/// The golden case names: the naga path's SPIR-V goldens, sorted.
fn golden_cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(NAGA_GOLDEN)
        .expect("the naga path's golden SPIR-V directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".spv.hex").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

fn shader(name: &str) -> Shader {
    let path = Path::new(SNAPSHOTS).join(format!("{name}.hex"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let tokens: Vec<u32> = text
        .split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).expect("a hex DWORD"))
        .collect();
    Shader::decode(&tokens).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn disassemble(words: &[u32]) -> String {
    let mut loader = rspirv::dr::Loader::new();
    rspirv::binary::parse_words(words, &mut loader).expect("the emitted words parse");
    let mut text = loader.module().disassemble();
    text.push('\n');
    text
}

#[test]
fn direct_spirv_matches_the_golden_listings() {
    let bless = std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1");
    let cases = golden_cases();
    // 43 today; fewer means the naga goldens moved or the directory is missing.
    assert!(cases.len() >= 40, "only {} golden cases", cases.len());
    let mut mismatched = Vec::new();
    for name in &cases {
        let words = d3dbc_spirv::emit(&shader(name), &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = disassemble(&words);
        assert!(
            text.contains("OpEntryPoint"),
            "{name}: no entry point in\n{text}"
        );
        let path = Path::new(OUT).join(format!("{name}.spvasm"));
        if bless {
            std::fs::create_dir_all(OUT).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            mismatched.push(name.clone());
        }
    }
    if !bless {
        // No stale goldens: every file kept is one of the cases.
        for e in std::fs::read_dir(OUT).expect("tests/out/spv-direct") {
            let file = e.unwrap().file_name().into_string().unwrap();
            let stem = file.strip_suffix(".spvasm").unwrap_or(&file);
            assert!(
                cases.iter().any(|c| c == stem),
                "stale golden file {file} (no such case)"
            );
        }
    }
    assert!(
        mismatched.is_empty(),
        "direct SPIR-V differs from the golden listings (D3DBC_BLESS=1 rewrites them): {}",
        mismatched.join(", ")
    );
}
