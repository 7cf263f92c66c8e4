//! `rip` keeps every verb's habits: directories and standard input as inputs,
//! `--format json` (`--json` still accepted) with `--pretty`, `-o FILE`, the naming
//! rule for finds of inputs sharing a stem, and a quiet status 141 on a closed pipe.

mod common;

use common::{close_after_first_line, example, run, text, tmpdir};

/// Random-looking bytes with the example vertex shader at 13 and the example effect
/// after it.
fn blob() -> (Vec<u8>, usize) {
    let vs = std::fs::read(example("transform.vso")).unwrap();
    let mut b = vec![0x11u8; 13];
    b.extend_from_slice(&vs);
    b.extend_from_slice(&[0x22; 7]);
    (b, vs.len())
}

#[test]
fn rip_reads_directories_and_stdin() {
    let dir = tmpdir("rip-dir");
    let (b, size) = blob();
    std::fs::create_dir_all(dir.join("in/sub")).unwrap();
    std::fs::write(dir.join("in/game.exe"), &b).unwrap();
    std::fs::write(dir.join("in/sub/level.pak"), &b).unwrap();
    std::fs::write(dir.join("in/notes.txt"), b"nothing here").unwrap();
    let out = run(&["rip", dir.join("in").to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 2, "{s}");
    assert!(
        s.contains(&format!("game.exe: 0x0000000d vso vs_2_0 {size} bytes")),
        "{s}"
    );
    assert!(s.contains("level.pak: 0x0000000d"), "{s}");
    // Standard input, with no file and with `-`; finds written under `stdin@…`.
    let outdir = dir.join("out");
    for args in [&["rip"][..], &["rip", "-"]] {
        let mut a = args.to_vec();
        a.extend(["--out-dir", outdir.to_str().unwrap()]);
        let out = run(&a, Some(&b));
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("<stdin>: 0x0000000d vso"),
            "{}",
            text(&out.stdout)
        );
    }
    assert!(outdir.join("stdin@d.vso").exists());
    // A directory keeps the path below it.
    let out = run(
        &[
            "rip",
            dir.join("in").to_str().unwrap(),
            "--out-dir",
            outdir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(outdir.join("game@d.vso").exists() && outdir.join("sub/level@d.vso").exists());
}

#[test]
fn rip_lists_json_and_writes_the_list_with_dash_o() {
    let dir = tmpdir("rip-json");
    let (b, size) = blob();
    let input = dir.join("game.pak");
    std::fs::write(&input, &b).unwrap();
    let i = input.to_str().unwrap();
    let compact = run(&["rip", "--format", "json", i], None);
    assert!(compact.status.success(), "{}", text(&compact.stderr));
    assert_eq!(text(&compact.stdout).lines().count(), 1);
    let v: serde_json::Value = serde_json::from_slice(&compact.stdout).unwrap();
    assert_eq!(v[0]["offset"], 13);
    assert_eq!(v[0]["size"], size);
    assert_eq!(v[0]["version"], "vs_2_0");
    let old = run(&["rip", "--json", i], None);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&old.stdout).unwrap(),
        v
    );
    let pretty = run(&["rip", "--format", "json", "--pretty", i], None);
    assert!(text(&pretty.stdout).lines().count() > 5);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&pretty.stdout).unwrap(),
        v
    );
    let list = dir.join("lists/finds.json");
    let out = run(
        &["rip", "--format", "json", i, "-o", list.to_str().unwrap()],
        None,
    );
    assert!(out.status.success() && out.stdout.is_empty());
    let from_file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&list).unwrap()).unwrap();
    assert_eq!(from_file, v);
}

#[test]
fn rip_names_finds_of_inputs_sharing_a_stem_apart() {
    let dir = tmpdir("rip-names");
    let (b, _) = blob();
    std::fs::write(dir.join("game.exe"), &b).unwrap();
    std::fs::write(dir.join("game.dll"), &b).unwrap();
    let outdir = dir.join("out");
    let out = run(
        &[
            "rip",
            dir.join("game.exe").to_str().unwrap(),
            dir.join("game.dll").to_str().unwrap(),
            "--out-dir",
            outdir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        outdir.join("game.exe@d.vso").exists(),
        "{:?}",
        std::fs::read_dir(&outdir).unwrap().collect::<Vec<_>>()
    );
    assert!(outdir.join("game.dll@d.vso").exists());
}

#[test]
fn rip_ends_quietly_on_a_closed_pipe() {
    let dir = tmpdir("rip-pipe");
    let vs = std::fs::read(example("transform.vso")).unwrap();
    // Thousands of finds: far more output than a pipe buffer holds.
    let mut b = Vec::new();
    for _ in 0..20_000 {
        b.extend_from_slice(&[0x11; 3]);
        b.extend_from_slice(&vs);
    }
    let input = dir.join("many.bin");
    std::fs::write(&input, &b).unwrap();
    let (status, err) = close_after_first_line(&["rip", input.to_str().unwrap()]);
    assert_eq!(status, Some(141), "{err}");
    assert!(err.is_empty(), "{err}");
}
