//! Where outputs go, the same on every verb: `-o` into a missing folder creates it, and
//! nothing is written into the current directory unasked (`translate --interface`
//! needs a named output).

mod common;

use common::{example, run, run_in, text, tmpdir};

#[test]
fn dash_o_into_a_missing_folder_creates_it_on_every_verb() {
    let dir = tmpdir("paths-missing");
    let pso = example("textured.pso");
    let pso = pso.to_str().unwrap();
    let asm = example("textured.asm");
    let asm = asm.to_str().unwrap();
    let out = |name: &str| dir.join("a/b").join(name).to_str().unwrap().to_string();
    let cases: Vec<Vec<String>> = vec![
        vec!["dis".into(), pso.into(), "-o".into(), out("x.asm")],
        vec!["asm".into(), asm.into(), "-o".into(), out("x.pso")],
        vec![
            "translate".into(),
            "-t".into(),
            "wgsl".into(),
            pso.into(),
            "-o".into(),
            out("x.wgsl"),
        ],
        vec![
            "render".into(),
            pso.into(),
            "--size".into(),
            "4x4".into(),
            "-o".into(),
            out("x.png"),
        ],
    ];
    for c in &cases {
        let args: Vec<&str> = c.iter().map(String::as_str).collect();
        let r = run(&args, None);
        assert!(r.status.success(), "{args:?}: {}", text(&r.stderr));
        assert!(
            std::path::Path::new(c.last().unwrap()).is_file(),
            "{args:?}"
        );
    }
}

#[test]
fn translate_interface_never_writes_into_the_current_directory() {
    let dir = tmpdir("paths-interface");
    let pso = example("textured.pso");
    let r = run_in(
        Some(&dir),
        &[
            "translate",
            "-t",
            "wgsl",
            "--interface",
            pso.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.status.code(), Some(2), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("--interface"));
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "wrote into the cwd"
    );
    // With -o, beside the output.
    let r = run_in(
        Some(&dir),
        &[
            "translate",
            "-t",
            "wgsl",
            "--interface",
            pso.to_str().unwrap(),
            "-o",
            "out/x.wgsl",
        ],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(dir.join("out/x.interface.json").is_file());
}
