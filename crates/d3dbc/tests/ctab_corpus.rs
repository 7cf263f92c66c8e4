//! CTAB conformance: every constant table in the corpus parses, its creator matches the
//! record's, and its constants are exactly the rows of the `// Registers:` table of
//! Microsoft's own listing of the same shader.

mod common;

use d3dbc::Shader;

#[test]
fn ctabs_match_microsoft_register_tables() {
    let Some(records) = common::records("binaries.jsonl") else {
        return;
    };
    let mut tables = 0;
    let mut rows_checked = 0;
    for r in &records {
        let label = common::label(r);
        let shader = Shader::decode(&common::dwords(&r["dwords"]))
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let Some(ctab) = shader.ctab() else { continue };
        let ctab = ctab.unwrap_or_else(|e| panic!("{label}: {e}"));
        tables += 1;
        if let Some(creator) = r["ctab_creator"].as_str() {
            assert_eq!(ctab.creator, creator, "{label}");
        }
        // The target names the model the shader was compiled for (`ps_2_b` for a 2_x stream).
        assert_eq!(ctab.target[..4], shader.version.to_string()[..4], "{label}");
        let Some(text) = r["disasm_text"].as_str() else {
            continue;
        };
        // Rows of the Registers table: `//   name   c0   4`.
        let mut rows: Vec<(String, String, u16)> = Vec::new();
        let mut in_table = false;
        for line in text.lines() {
            let l = line.trim_start_matches("//").trim();
            if l.starts_with("----") {
                in_table = true;
                continue;
            }
            if in_table {
                if l.is_empty() {
                    break;
                }
                let f: Vec<&str> = l.split_whitespace().collect();
                rows.push((f[0].to_string(), f[1].to_string(), f[2].parse().unwrap()));
            }
        }
        let mut ours: Vec<(String, String, u16)> = ctab
            .constants
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    format!("{}{}", c.register_set.prefix(), c.register_index),
                    c.register_count,
                )
            })
            .collect();
        ours.sort();
        rows.sort();
        assert_eq!(
            ours, rows,
            "{label}: CTAB constants differ from Microsoft's Registers table"
        );
        rows_checked += rows.len();
    }
    eprintln!(
        "CTAB: {tables} tables parsed, {rows_checked} register rows match Microsoft's listings"
    );
    assert!(tables >= 77 && rows_checked > 100);
}

#[test]
fn every_corpus_ctab_parses() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut n = 0;
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        if let Some(c) = shader.ctab() {
            // Wine's d3dx9 test of a deliberately broken table.
            if label.ends_with("shader_with_invalid_ctab") {
                let e = c.expect_err("an invalid CTAB must be rejected");
                assert!(e.reason.contains("truncated"), "{e}");
                continue;
            }
            let c = c.unwrap_or_else(|e| panic!("{file} {label}: {e}"));
            for k in &c.constants {
                assert!(
                    !k.name.is_empty() && k.register_count > 0,
                    "{file} {label}: {k:?}"
                );
            }
            n += 1;
        }
    }
    eprintln!("{n} CTAB blocks parsed");
    assert!(n > 100);
}

#[test]
fn hostile_tables_fail_cleanly() {
    use d3dbc::ctab::{Ctab, CTAB_FOURCC};
    // Header claims 1000000 constants.
    let t = [CTAB_FOURCC, 28, 28, 0xFFFE0200, 1_000_000, 28, 0, 28, 0];
    assert!(Ctab::parse(&t).is_err());
    // A struct type whose member points back at itself.
    let mut t = vec![CTAB_FOURCC, 28, 56, 0xFFFE0200, 1, 28, 0, 56];
    // constant info at 28: name@56, set/index, count/reserved, type@48, default 0
    t.extend([56, 0x0000_0002, 0x0000_0001, 48, 0]);
    // type at 48: class struct(5), type void, rows/cols, elements 1 + 1 member, members@64
    t.extend([0x0000_0005, 0x0001_0001, 0x0001_0001, 64]);
    // "a\0" at 64 would overlap; members at 64: name@56, type@48 (cycle)
    t.extend([56, 48]);
    let e = Ctab::parse(&t).unwrap_err();
    assert!(
        e.reason.contains("nesting") || e.reason.contains("string"),
        "{e}"
    );
    assert!(Ctab::parse(&[CTAB_FOURCC, 4]).is_err());
    assert!(Ctab::parse(&[0x1234]).is_err());
}

#[test]
fn encoded_tables_parse_back_equal() {
    use d3dbc::ctab::Ctab;
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut n = 0;
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        let Some(Ok(ctab)) = shader.ctab() else {
            continue;
        };
        let payload = ctab.encode();
        assert_eq!(Ctab::parse(&payload).as_ref(), Ok(&ctab), "{file} {label}");
        n += 1;
    }
    eprintln!("{n} CTABs re-encode and parse back equal");
    assert!(n > 100);
}
