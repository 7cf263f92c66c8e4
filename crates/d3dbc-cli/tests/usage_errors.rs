//! A wrong command line exits 2 with the message, the verb's usage and a pointer to its
//! help, on every verb, before any input is processed; a failing input exits 1.

mod common;

use common::{example, run, text, tmpdir};

/// Runs `d3dbc args` and checks it was refused as a usage error naming `needle`.
fn assert_usage_error(args: &[&str], needle: &str) {
    let out = run(args, None);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(err.contains("Usage: d3dbc "), "{args:?}: {err}");
    assert!(err.contains("--help"), "{args:?}: {err}");
}

fn ps_3_0(dir: &std::path::Path) -> String {
    let p = dir.join("ps3.asm");
    std::fs::write(&p, "ps_3_0\nmov oC0, c0\n").unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn render_size_must_be_width_x_height() {
    let dir = tmpdir("usage-size");
    let png = dir.join("x.png");
    let ps = example("textured.pso");
    for size in ["abc", "0x4", "4x", "20000x1"] {
        assert_usage_error(
            &[
                "render",
                ps.to_str().unwrap(),
                "--size",
                size,
                "-o",
                png.to_str().unwrap(),
            ],
            "--size",
        );
    }
    assert!(!png.exists());
}

#[test]
fn constants_are_checked_against_the_shader_version() {
    let dir = tmpdir("usage-consts");
    let ps = ps_3_0(&dir);
    // ps_3_0 has c0–c223 (the D3D9 register table), no c9999.
    assert_usage_error(&["run", &ps, "--const", "c9999=1"], "c0–c223");
    assert_usage_error(&["run", &ps, "--const", "c224=1"], "out of range");
    let ok = run(&["run", &ps, "--const", "c223=1"], None);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    // ps_1_x has 8 float constants and no integer ones.
    let ps11 = dir.join("ps11.asm");
    std::fs::write(&ps11, "ps_1_1\nmov r0, c0\n").unwrap();
    let ps11 = ps11.to_str().unwrap();
    assert_usage_error(&["run", ps11, "--const", "c8=1"], "c0–c7");
    assert_usage_error(&["run", ps11, "--int", "i0=1"], "no i# registers");
    let png = dir.join("x.png");
    assert_usage_error(
        &[
            "render",
            &ps,
            "--const",
            "c300=1",
            "-o",
            png.to_str().unwrap(),
        ],
        "c0–c223",
    );
}

#[test]
fn malformed_flags_of_run_are_usage_errors() {
    let ps = example("textured.pso");
    let ps = ps.to_str().unwrap();
    assert_usage_error(&["run", ps, "--const", "c0=one"], "--const");
    assert_usage_error(&["run", ps, "--const", "x0=1"], "--const");
    assert_usage_error(&["run", ps, "--bool", "b0=yes"], "--bool");
    assert_usage_error(&["run", ps, "--input", "t0"], "--input");
    assert_usage_error(&["run", ps, "--input", "q3=1"], "no input register q3");
    assert_usage_error(&["run", ps, "--texture", "s99=x.png"], "--texture");
}

#[test]
fn batch_verbs_report_usage_the_same_way() {
    let a = example("textured.asm");
    let a = a.to_str().unwrap();
    assert_usage_error(&["asm", a, a, "-o", "x.pso"], "single input");
    assert_usage_error(
        &["translate", "-t", "wgsl", a, a, "-o", "x.wgsl"],
        "single input",
    );
}

#[test]
fn a_failing_input_is_not_a_usage_error() {
    let dir = tmpdir("usage-input");
    let missing = dir.join("missing.pso");
    let out = run(&["run", missing.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("Usage:"));
}

#[test]
fn render_size_help_describes_the_size() {
    let out = run(&["render", "--help"], None);
    let help = text(&out.stdout);
    let size = help
        .lines()
        .skip_while(|l| !l.contains("--size"))
        .take(2)
        .collect::<String>();
    assert!(size.contains("WIDTHxHEIGHT"), "{size}");
    assert!(!size.contains("CTAB"), "{size}");
}
