//! `asm` of an effect listing (what `dis X.fxo` prints): with `--fx-from ORIGINAL` the
//! original comes back byte for byte, an edited shader (its size changed) gives an
//! effect that parses and draws the edit, the listing alone builds a drawable effect,
//! and mistakes are located errors. A shader listing with a preshader block
//! reassembles with its `PRES` comment.

mod common;

use common::{example, run, text, tmpdir};

fn dis(path: &str) -> String {
    let out = run(&["dis", path], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

fn pixel(png: &std::path::Path) -> [u8; 4] {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    r.next_frame(&mut buf).unwrap();
    // The pixel at (3, 3) of 4x4: texture coordinate (0.75, 0.75).
    let at = (3 * 4 + 3) * 4;
    [buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]
}

#[test]
fn asm_of_dis_with_the_original_is_the_original() {
    let dir = tmpdir("asm-fx");
    let fx = example("tint.fxo");
    let listing = dir.join("tint.asm");
    std::fs::write(&listing, dis(fx.to_str().unwrap())).unwrap();
    let out_fx = dir.join("out.fxo");
    let out = run(
        &[
            "asm",
            listing.to_str().unwrap(),
            "--fx-from",
            fx.to_str().unwrap(),
            "-o",
            out_fx.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&out_fx).unwrap(), std::fs::read(&fx).unwrap());
}

#[test]
fn an_edited_shader_of_a_different_size_repacks_and_draws() {
    let dir = tmpdir("asm-fx-edit");
    let fx = example("tint.fxo");
    // Double the tint: one instruction more in the pixel shader.
    let edited = dis(fx.to_str().unwrap()).replace(
        "                mov oC0, r0\n",
        "                add r0, r0, r0\n                mov oC0, r0\n",
    );
    let listing = dir.join("tint.asm");
    std::fs::write(&listing, &edited).unwrap();
    let out_fx = dir.join("edited.fxo");
    let out = run(
        &[
            "asm",
            listing.to_str().unwrap(),
            "--fx-from",
            fx.to_str().unwrap(),
            "-o",
            out_fx.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let orig = std::fs::read(&fx).unwrap();
    let new = std::fs::read(&out_fx).unwrap();
    assert_eq!(
        new.len(),
        orig.len() + 16,
        "one instruction (4 DWORDs) more"
    );
    let e = d3dbc::fx::Effect::parse(&new).unwrap();
    // The edit lists back (with the footer's new count).
    let i = edited.rfind("approximately 2").unwrap();
    let want = format!("{}approximately 3{}", &edited[..i], &edited[i + 15..]);
    assert_eq!(dis(out_fx.to_str().unwrap()), want);
    assert_eq!(e.parameters[0].ty.name, "tint");
    // Drawn: twice the original picture.
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for (f, png) in [(&fx, &a), (&out_fx, &b)] {
        let out = run(
            &[
                "render",
                f.to_str().unwrap(),
                "--set",
                "tint=0.25,0.25,0.25,1",
                "--size",
                "4x4",
                "-o",
                png.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let (pa, pb) = (pixel(&a), pixel(&b));
    for c in 0..3 {
        assert!(
            (i32::from(pb[c]) - 2 * i32::from(pa[c])).abs() <= 1,
            "{pa:?} {pb:?}"
        );
    }
}

#[test]
fn the_listing_alone_builds_a_drawable_effect() {
    let dir = tmpdir("asm-fx-alone");
    let listing = dir.join("tint.asm");
    std::fs::write(&listing, dis(example("tint.fxo").to_str().unwrap())).unwrap();
    let out_fx = dir.join("new.fxo");
    let out = run(
        &[
            "asm",
            listing.to_str().unwrap(),
            "-o",
            out_fx.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let png = dir.join("n.png");
    let out = run(
        &[
            "render",
            out_fx.to_str().unwrap(),
            "--set",
            "tint=1,1,1,1",
            "--size",
            "4x4",
            "-o",
            png.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(pixel(&png)[0], 191, "u = 0.75 × tint 1");
}

#[test]
fn mistakes_in_an_effect_listing_are_located() {
    let dir = tmpdir("asm-fx-bad");
    let listing = dir.join("bad.asm");
    let edited =
        dis(example("tint.fxo").to_str().unwrap()).replace("mul r0, c0, t0", "mul r0, c0, t0, t1");
    std::fs::write(&listing, &edited).unwrap();
    let out = run(&["asm", listing.to_str().unwrap(), "-o", "-"], None);
    assert_eq!(out.status.code(), Some(1));
    let line = edited.lines().position(|l| l.contains("t0, t1")).unwrap() + 1;
    let e = text(&out.stderr);
    assert!(e.contains(&format!("bad.asm:{line}:")), "{e}");
    std::fs::write(
        &listing,
        "technique T\n{\n    pass P\n    {\n        bogus\n",
    )
    .unwrap();
    let out = run(&["asm", listing.to_str().unwrap(), "-o", "-"], None);
    let e = text(&out.stderr);
    assert!(
        e.contains("bad.asm:5:9: error: expected `vertexshader =`"),
        "{e}"
    );
    // Another effect as the original: the structure must match.
    std::fs::write(&listing, "technique A\n{\n}\ntechnique B\n{\n}\n").unwrap();
    let fx = example("tint.fxo");
    let out = run(
        &[
            "asm",
            listing.to_str().unwrap(),
            "--fx-from",
            fx.to_str().unwrap(),
            "-o",
            "-",
        ],
        None,
    );
    assert!(
        text(&out.stderr).contains("not the original effect's"),
        "{}",
        text(&out.stderr)
    );
}

/// A shader listing with a preshader block (`dis` of a shader with a `PRES` comment)
/// assembles to a shader carrying its preshader; the preshader runs as before.
#[test]
fn a_shader_listing_with_a_preshader_keeps_it() {
    let dir = tmpdir("asm-pres");
    let listing = dir.join("p.vsh");
    std::fs::write(
        &listing,
        "// Generated by me\n// Parameters:\n//   float4 g;\n// Registers:\n//   Name Reg Size\n\
         //   ---- --- ----\n//   g    c0  1\n//\n    preshader\n    add c1, (5, 5, 5, 5), c0\n\n\
         // approximately 1 instruction used\n    vs_2_0\n    mov oPos, c1\n",
    )
    .unwrap();
    let vso = dir.join("p.vso");
    let out = run(
        &[
            "asm",
            listing.to_str().unwrap(),
            "-o",
            vso.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = dis(vso.to_str().unwrap());
    assert!(
        s.contains("    preshader\n    add c1, (5, 5, 5, 5), c0\n"),
        "{s}"
    );
    assert!(s.contains("    vs_2_0\n    mov oPos, c1\n"), "{s}");
}
