//! One input rule on every verb: a directory yields the files of what the verb reads,
//! by extension or recognised by content (`.txt` listings, bytecode under any name),
//! `--ext` chooses extensions the same way everywhere, and `asm --out-ext` (not `--ext`)
//! names the outputs.

mod common;

use common::{example, run, text, tmpdir};

/// A folder like a HelixMod fix: a listing dump as `.txt`, bytecode named `.dat`, an
/// unrelated `.txt`, and a bytecode `.pso`.
fn fix_folder(tag: &str) -> std::path::PathBuf {
    let dir = tmpdir(tag);
    std::fs::create_dir_all(dir.join("ShaderFixes")).unwrap();
    std::fs::write(
        dir.join("ShaderFixes/0a1b2c3d-ps.txt"),
        "// dumped by 3DMigoto\n    ps_3_0\n    def c0, 1, 0, 0, 1\n    mov oC0, c0\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("readme.txt"),
        "Install: copy into the game folder.\n",
    )
    .unwrap();
    std::fs::copy(example("textured.pso"), dir.join("textured.pso")).unwrap();
    std::fs::copy(example("transform.vso"), dir.join("transform.dat")).unwrap();
    dir
}

fn names(out: &[u8]) -> Vec<String> {
    text(out)
        .lines()
        .filter_map(|l| l.strip_prefix("// "))
        .map(|l| l.rsplit('/').next().unwrap().to_string())
        .filter(|n| n.contains('.'))
        .collect()
}

#[test]
fn validate_and_translate_take_listings_by_content_and_bytecode_by_token() {
    let dir = fix_folder("inputs-both");
    let d = dir.to_str().unwrap();
    let v = run(&["validate", "-v", d], None);
    let report = text(&v.stdout);
    assert!(v.status.success(), "{report}{}", text(&v.stderr));
    assert!(report.contains("0a1b2c3d-ps.txt: valid"), "{report}");
    assert!(report.contains("transform.dat: valid"), "{report}");
    assert!(report.contains("textured.pso: valid"), "{report}");
    assert!(!report.contains("readme"), "{report}");
    assert!(report.contains("3 valid, 0 invalid"), "{report}");
    let out = tmpdir("inputs-both-out");
    let t = run(
        &[
            "translate",
            "-t",
            "wgsl",
            d,
            "--out-dir",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(t.status.success(), "{}", text(&t.stderr));
    assert!(out.join("ShaderFixes/0a1b2c3d-ps.wgsl").is_file());
    assert!(out.join("transform.wgsl").is_file());
}

#[test]
fn dis_takes_bytecode_and_asm_takes_listings() {
    let dir = fix_folder("inputs-kinds");
    let d = dir.to_str().unwrap();
    let dis = run(&["dis", d], None);
    assert!(dis.status.success(), "{}", text(&dis.stderr));
    assert_eq!(names(&dis.stdout), ["textured.pso", "transform.dat"]);
    let out = tmpdir("inputs-kinds-out");
    let asm = run(&["asm", d, "--out-dir", out.to_str().unwrap()], None);
    assert!(asm.status.success(), "{}", text(&asm.stderr));
    assert!(out.join("ShaderFixes/0a1b2c3d-ps.pso").is_file());
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn ext_picks_inputs_on_every_verb() {
    let dir = fix_folder("inputs-ext");
    let d = dir.to_str().unwrap();
    let v = run(&["validate", "-v", "--ext", "dat", d], None);
    assert!(text(&v.stdout).contains("transform.dat: valid"));
    assert!(!text(&v.stdout).contains("textured.pso"));
    let dis = run(&["dis", "--ext", "pso", d], None);
    assert!(text(&dis.stdout).contains("ps_2_0"));
    let out = tmpdir("inputs-ext-out");
    let o = out.to_str().unwrap();
    let t = run(
        &["translate", "-t", "wgsl", "--ext", "pso", d, "--out-dir", o],
        None,
    );
    assert!(t.status.success(), "{}", text(&t.stderr));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    // asm: --ext picks inputs too (exactly: readme.txt is read, and fails); the output
    // extension is --out-ext.
    let a = run(
        &["asm", "--ext", "txt", d, "--out-dir", o, "--out-ext", "bin"],
        None,
    );
    assert_eq!(a.status.code(), Some(1), "{}", text(&a.stderr));
    assert!(
        text(&a.stderr).contains("readme.txt:1:1"),
        "{}",
        text(&a.stderr)
    );
    assert!(out.join("ShaderFixes/0a1b2c3d-ps.bin").is_file());
    // An extension nothing has: a usage error naming it.
    let none = run(&["dis", "--ext", "xyz", d], None);
    assert_eq!(none.status.code(), Some(2));
    assert!(text(&none.stderr).contains("xyz"));
}
