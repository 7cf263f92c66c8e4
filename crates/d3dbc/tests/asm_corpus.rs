//! Assembler conformance over the corpus: Wine's Windows-verified D3DAssemble cases
//! (exact DWORDs and expected rejections), HelixMod's hand-edited SM3 listings and the
//! Oblivion vsa/fxc listings (acceptance), and fxc listings with their binaries (exact
//! instructions, comments aside).

mod common;

use d3dbc::asm;
use d3dbc::Item;

/// Assembles as Wine's test calls D3DAssemble: with `D3DCOMPILE_SKIP_VALIDATION`, so
/// only what the assembler itself refuses counts (`asm --no-validate`).
fn assemble(text: &str) -> Result<Vec<u32>, String> {
    let opts = asm::Options {
        file_name: "test.asm".into(),
        no_validate: true,
        ..Default::default()
    };
    asm::assemble(text, &opts)
        .map(|s| s.encode())
        .map_err(|e| e.to_string())
}

/// Compares up to and including the end token, as Wine's test does.
fn upto_end(t: &[u32]) -> &[u32] {
    match t.iter().position(|&x| x == 0xFFFF) {
        Some(i) => &t[..=i],
        None => t,
    }
}

#[test]
fn wine_asm_oracle() {
    let Some(recs) = common::records("wine_asm.jsonl") else {
        return;
    };
    let (mut ok, mut ok_total, mut rejected, mut reject_total) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for r in &recs {
        let text = r["text"].as_str().unwrap();
        let label = format!("{} [{} {}]", common::label(r), r["group"], r["index"]);
        let has_expected = r["expected"].as_array().is_some_and(|a| !a.is_empty());
        if has_expected {
            ok_total += 1;
            let exp = common::dwords(&r["expected"]);
            match assemble(text) {
                Ok(got) if upto_end(&got) == upto_end(&exp) => ok += 1,
                Ok(got) => failures.push(format!(
                    "{label}: wrong tokens\n  text: {text:?}\n  want: {}\n  got:  {}",
                    hex(&exp),
                    hex(&got)
                )),
                Err(e) => failures.push(format!("{label}: rejected\n  text: {text:?}\n{e}")),
            }
        } else if r["expect_fail"].as_bool() == Some(true) {
            reject_total += 1;
            match assemble(text) {
                // Rejected with a located diagnostic (`file:line:col: error: ...`).
                Err(e) if e.contains("test.asm:") && e.contains(": error") => rejected += 1,
                Err(e) => failures.push(format!("{label}: rejected without a located error: {e}")),
                Ok(got) => failures.push(format!(
                    "{label}: accepted but Microsoft rejects it ({})\n  text: {text:?}\n  got: {}",
                    r["note"],
                    hex(&got)
                )),
            }
        }
    }
    eprintln!("wine_asm: {ok}/{ok_total} assembled exactly, {rejected}/{reject_total} rejected");
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    assert_eq!(ok_total, 192);
    assert_eq!(reject_total, 57);
    assert!(failures.is_empty(), "{} wine_asm failures", failures.len());
    assert_eq!(ok, 192);
    assert_eq!(rejected, 57);
}

fn hex(t: &[u32]) -> String {
    t.iter()
        .map(|x| format!("{x:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Assembles every `text` of a listing file; returns (passed, total, failures).
fn accept_all(file: &str) -> Option<(usize, usize, Vec<String>)> {
    let recs = common::records(file)?;
    let mut failures = Vec::new();
    let mut ok = 0;
    let mut bytes = 0usize;
    let mut elapsed = std::time::Duration::ZERO;
    for r in &recs {
        let text = r["text"].as_str().unwrap();
        bytes += text.len();
        let t0 = std::time::Instant::now();
        let res = asm::parse(text, "test.asm");
        elapsed += t0.elapsed();
        match res {
            Ok(_) => ok += 1,
            Err(e) => failures.push(format!("{}: {}", common::label(r), e)),
        }
    }
    eprintln!(
        "{file}: parsed {:.1} MB in {:.3} s ({:.0} MB/s, this build's optimisation level)",
        bytes as f64 / 1e6,
        elapsed.as_secs_f64(),
        bytes as f64 / 1e6 / elapsed.as_secs_f64().max(1e-9)
    );
    Some((ok, recs.len(), failures))
}

#[test]
fn helix_listings_assemble() {
    let Some((ok, total, failures)) = accept_all("helix_asm.jsonl") else {
        return;
    };
    eprintln!("helix_asm: {ok}/{total} assembled");
    for f in failures.iter().take(usize::MAX) {
        eprintln!("FAIL {f}");
    }
    assert_eq!(total, 3251);
    assert_eq!(ok, total, "{} helix listings rejected", failures.len());
}

#[test]
fn oblivion_listings_assemble() {
    let Some((ok, total, failures)) = accept_all("oblivion_disasm.jsonl") else {
        return;
    };
    eprintln!("oblivion_disasm: {ok}/{total} assembled");
    for f in failures.iter().take(usize::MAX) {
        eprintln!("FAIL {f}");
    }
    assert_eq!(total, 690);
    assert_eq!(ok, total, "{} oblivion listings rejected", failures.len());
}

/// fxc's listings of compiled shaders assemble back to the binaries' instructions
/// (the binaries carry a CTAB comment that a listing does not).
#[test]
fn fxc_listings_reassemble_to_their_binaries() {
    let Some(recs) = common::records("binaries.jsonl") else {
        return;
    };
    let mut ok = 0;
    let mut total = 0;
    let mut failures = Vec::new();
    for r in &recs {
        let Some(text) = common::fxc_listing(r) else {
            continue;
        };
        total += 1;
        let tokens = common::dwords(&r["dwords"]);
        let want = d3dbc::Shader::decode(&tokens).unwrap().without_comments();
        let opts = asm::Options::default();
        match asm::assemble(&text, &opts) {
            Ok(got) if got == want => ok += 1,
            Ok(got) => {
                let first = got
                    .items
                    .iter()
                    .zip(&want.items)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.items.len().min(want.items.len()));
                let show = |i: Option<&Item>| format!("{i:?}");
                failures.push(format!(
                    "{}: differs at item {first}\n  want {}\n  got  {}",
                    common::label(r),
                    show(want.items.get(first)),
                    show(got.items.get(first))
                ));
            }
            Err(e) => failures.push(format!("{}: {e}", common::label(r))),
        }
    }
    eprintln!("binaries: {ok}/{total} listings reassembled to their binaries");
    for f in failures.iter().take(10) {
        eprintln!("FAIL {f}");
    }
    assert_eq!(total, 77);
    assert_eq!(ok, total, "{} listings differ", failures.len());
}

/// Wine's d3d8/d3d9 tests write the assembly beside hand-made token arrays
/// (`asm_comments`). Those comments are sometimes wrong or use pre-D3D9 syntax, so this is
/// a report, with the count pinned so that changes show.
#[test]
fn wine_blob_comments_report() {
    let Some(recs) = common::records("wine_d3d9_blobs.jsonl") else {
        return;
    };
    let (mut same, mut differ, mut rejected, mut total) = (0, 0, 0, 0);
    for r in &recs {
        let Some(text) = r.get("asm_comments").and_then(|t| t.as_str()) else {
            continue;
        };
        total += 1;
        let tokens = common::dwords(&r["dwords"]);
        let Ok(want) = d3dbc::Shader::decode(&tokens) else {
            continue;
        };
        let want = want.without_comments();
        // The comments transcribe the end token as `end`; the assembler has no such statement.
        let text: String = text
            .lines()
            .filter(|l| !l.trim().eq_ignore_ascii_case("end"))
            .map(|l| format!("{l}\n"))
            .collect();
        match asm::assemble(&text, &asm::Options::default()) {
            Ok(got) if got == want => same += 1,
            Ok(got) => {
                differ += 1;
                eprintln!(
                    "DIFFER {}\n  {text:?}\n  want {}\n  got  {}",
                    common::label(r),
                    hex(&want.encode()),
                    hex(&got.encode())
                );
            }
            Err(e) => {
                rejected += 1;
                eprintln!("REJECTED {}: {e}", common::label(r));
            }
        }
    }
    eprintln!("wine_d3d9_blobs asm_comments: {same}/{total} identical, {differ} differ, {rejected} rejected");
    // The 8 that differ have comments that disagree with their tokens (missing `def`s,
    // `slt` written for `sge`, `3.14159` for pi, `def c0` for c1...); the rejected ones are
    // prose, DX8 syntax (`def c1 = ...`) or typos (`dcl_normal, v0`).
    assert_eq!(total, 246);
    assert_eq!(same, 180, "identical count changed");
}
