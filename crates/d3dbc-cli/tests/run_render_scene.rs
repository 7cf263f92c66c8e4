//! `run` and `render` share one documented scene: `run` gives what `render` draws at
//! the point whose texture coordinate `--input t0=u,v` names (colours white, CTAB
//! constants without a default at 1), and both `--help` texts say so.

mod common;

use common::{example, run, text, tmpdir};

fn png_pixel(path: &std::path::Path, x: usize, y: usize) -> [u8; 4] {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0u8; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let at = (y * info.width as usize + x) * 4;
    buf[at..at + 4].try_into().unwrap()
}

fn run_values(args: &[&str]) -> Vec<f32> {
    let out = run(args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let line = s.lines().find(|l| l.starts_with("oC0 = ")).unwrap();
    line.trim_start_matches("oC0 = (")
        .trim_end_matches(')')
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn run_gives_what_render_draws_at_the_same_texture_coordinate() {
    let dir = tmpdir("scene-same");
    let src = dir.join("uv.asm");
    // Colour input v0 (white in the scene) with t0's u, v in red and green.
    std::fs::write(
        &src,
        "ps_2_0\ndcl v0\ndcl t0.xy\nmov r0, v0\nmov r0.xy, t0\nmov oC0, r0\n",
    )
    .unwrap();
    let png = dir.join("uv.png");
    let src = src.to_str().unwrap();
    let r = run(
        &["render", src, "--size", "4x4", "-o", png.to_str().unwrap()],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let bytes = |v: &[f32]| -> Vec<u8> {
        v.iter()
            .map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8)
            .collect()
    };
    // D3D9 samples pixel (x, y) at (x, y) (no half-pixel offset): pixel (1, 2) has
    // (u, v) = (1 / 4, 2 / 4).
    let drawn = png_pixel(&png, 1, 2);
    let v = run_values(&["run", src, "--input", "t0=0.25,0.5"]);
    assert_eq!(bytes(&v), drawn, "run {v:?} vs render {drawn:?}");
    assert_eq!(&drawn[2..], &[255, 255], "colour inputs are white in both");
    // With no --input, run is the scene's top-left pixel.
    let v = run_values(&["run", src]);
    assert_eq!(bytes(&v), png_pixel(&png, 0, 0), "run {v:?}");
}

#[test]
fn ctab_constants_without_a_default_start_at_one_in_both() {
    // textured.pso declares Tint (c0) without a default value.
    let pso = example("textured.pso");
    let pso = pso.to_str().unwrap();
    let unset = run_values(&["run", pso, "--input", "t0=0.3,0.6"]);
    let one = run_values(&["run", pso, "--input", "t0=0.3,0.6", "--const", "c0=1,1,1,1"]);
    assert_eq!(unset, one);
    // The README's example: 0.75 where render draws 0.75 (checker 0.25 × white × 1 + 0.5).
    assert!((unset[0] - 0.75).abs() < 0.01, "{unset:?}");
}

#[test]
fn both_helps_describe_the_one_scene() {
    for verb in ["run", "render"] {
        let h = text(&run(&[verb, "--help"], None).stdout);
        assert!(h.contains("colour inputs white"), "{verb}: {h}");
        assert!(h.contains("declared without one at 1"), "{verb}: {h}");
    }
    let h = text(&run(&["render", "--help"], None).stdout);
    assert!(h.contains("both stages"), "{h}");
}
