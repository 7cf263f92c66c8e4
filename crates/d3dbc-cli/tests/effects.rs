//! The effect verbs end to end on the bundled `examples/tint.fxo`: `dis` (fxc's effect
//! listing, `--format json`), `validate` of the embedded shaders, `render`/`run` of a
//! pass with `--set`, and `rip` finding the effect planted in other bytes.

mod common;

use common::{example, run, text, tmpdir};

fn tint() -> String {
    example("tint.fxo").to_str().unwrap().to_string()
}

#[test]
fn dis_lists_the_effect_as_fxc_does() {
    let out = run(&["dis", &tint()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("\n//listing of all techniques and passes with embedded asm listings \n\ntechnique Tint\n{\n    pass P0\n    {\n        vertexshader = \n            asm {\n"), "{s}");
    assert!(s.contains("                mul r0, c0, t0\n"));
    assert!(s.ends_with("            };\n    }\n}\n\n"));
    let out = run(&["dis", "--format", "json", &tint()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &v[0]["effect"];
    assert_eq!(e["parameters"][0]["name"], "tint");
    assert_eq!(
        e["techniques"][0]["passes"][0]["states"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn validate_checks_every_embedded_shader() {
    let out = run(&["validate", "-v", &tint()], None);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn render_and_run_an_effect_pass_with_set_values() {
    let dir = tmpdir("fx-render");
    let png = dir.join("tint.png");
    let out = run(
        &[
            "render",
            &tint(),
            "--technique",
            "Tint",
            "--pass",
            "0",
            "--set",
            "tint=1,0.5,0.25,1",
            "--size",
            "8x8",
            "-o",
            png.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    // tint × the quad's texture coordinates (u, v, 0, 1).
    let px = |x: usize, y: usize| &buf[(y * 8 + x) * 4..(y * 8 + x) * 4 + 4];
    for y in 0..8 {
        for x in 0..8 {
            let p = px(x, y);
            assert_eq!((p[2], p[3]), (0, 255));
            // D3D9 samples pixels at integer positions.
            let (u, v) = (x as f32 / 8.0, y as f32 / 8.0);
            assert!((p[0] as f32 - u * 255.0).abs() <= 1.0, "{x},{y}: {p:?}");
            assert!(
                (p[1] as f32 - 0.5 * v * 255.0).abs() <= 1.0,
                "{x},{y}: {p:?}"
            );
        }
    }
    assert_eq!(info.width, 8);
    let out = run(
        &[
            "run",
            &tint(),
            "--set",
            "tint=0.5,0,1,1",
            "--input",
            "t0=1,1,1,1",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("oC0 = (0.5, 0, 1, 1)"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&["run", &tint(), "--set", "nope=1"], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no parameter nope"));
}

#[test]
fn rip_finds_and_writes_a_planted_effect_and_shader() {
    let dir = tmpdir("fx-rip");
    let fx = std::fs::read(example("tint.fxo")).unwrap();
    let vs = std::fs::read(example("transform.vso")).unwrap();
    let mut blob = vec![0x11u8; 13];
    blob.extend_from_slice(&fx);
    blob.extend_from_slice(&[0x22; 7]);
    blob.extend_from_slice(&vs);
    blob.extend_from_slice(&[0x33; 5]);
    let input = dir.join("game.pak");
    std::fs::write(&input, &blob).unwrap();
    let outdir = dir.join("out");
    let out = run(
        &[
            "rip",
            input.to_str().unwrap(),
            "--out-dir",
            outdir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 2, "{s}");
    assert!(
        s.contains(&format!("0x0000000d fxo fx_2_0 {} bytes", fx.len())),
        "{s}"
    );
    let vs_at = 13 + fx.len() + 7;
    assert!(
        s.contains(&format!("{vs_at:#010x} vso vs_2_0 60 bytes")),
        "{s}"
    );
    assert_eq!(std::fs::read(outdir.join("game@d.fxo")).unwrap(), fx);
    assert_eq!(
        std::fs::read(outdir.join(format!("game@{vs_at:x}.vso"))).unwrap(),
        vs
    );
}

/// A plain shader carrying a `PRES` comment: `dis` prints the preshader block first.
#[test]
fn dis_prints_a_plain_shaders_preshader() {
    let lit = |x: f64| [x.to_bits() as u32, (x.to_bits() >> 32) as u32];
    let mut pres = vec![u32::from_le_bytes(*b"PRES"), 0x4658_0200];
    let mut clit = vec![u32::from_le_bytes(*b"CLIT"), 4];
    for x in [1.0, 2.0, 3.0, 4.5] {
        clit.extend(lit(x));
    }
    pres.push(((clit.len() as u32) << 16) | 0xFFFE);
    pres.extend(clit);
    // mov c0, (1, 2, 3, 4.5): opcode 0x100, 4 components, 1 input.
    let fxlc = [
        u32::from_le_bytes(*b"FXLC"),
        1,
        0x1000_0004,
        1,
        0,
        1,
        0,
        0,
        4,
        0,
    ];
    pres.push(((fxlc.len() as u32) << 16) | 0xFFFE);
    pres.extend(fxlc);
    pres.push(0x0000_FFFF);
    let mut tokens = vec![0xFFFE_0200, ((pres.len() as u32) << 16) | 0xFFFE];
    tokens.extend(pres);
    tokens.extend([0x0200_0001, 0xC00F_0000, 0xA0E4_0000, 0x0000_FFFF]); // mov oPos, c0
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let out = run(&["dis", "-"], Some(&bytes));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "    preshader\n    mov c0, (1, 2, 3, 4.5)\n\n// approximately 1 instruction used\n    vs_2_0\n    mov oPos, c0\n\n// approximately 1 instruction slot used\n"
    );
}
