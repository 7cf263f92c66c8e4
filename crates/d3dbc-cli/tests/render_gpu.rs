//! `d3dbc render --gpu` (cargo feature `gpu`): the GPU picture equals the CPU
//! executor's for the bundled examples, and a build without the feature says how to get
//! it. On a machine without a Vulkan adapter the GPU comparison skips visibly, except
//! under `CI=true`, where `.ci/run` installs lavapipe.

mod common;
use common::*;

fn pixels(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_and_cpu_draw_the_same_picture() {
    let dir = tmpdir("render-gpu");
    let cases: [(&str, &[&str]); 3] = [
        ("textured", &["--size", "96x64"]),
        (
            "textured-vs",
            &[
                "--size",
                "64x64",
                "--const",
                "c0=1,0,0,0",
                "--const",
                "c1=0,1,0,0",
                "--const",
                "c2=0,0,1,0",
                "--const",
                "c3=0,0,0,1",
                "--vs",
            ],
        ),
        (
            "textured-const",
            &["--size", "33x17", "--const", "c0=0.5,0.25,1,1"],
        ),
    ];
    for (tag, extra) in cases {
        let mut base: Vec<String> = vec![
            "render".into(),
            example("textured.pso").display().to_string(),
        ];
        for a in extra {
            base.push(a.to_string());
        }
        if tag == "textured-vs" {
            base.push(example("transform.vso").display().to_string());
        }
        let cpu = dir.join(format!("{tag}-cpu.png"));
        let gpu = dir.join(format!("{tag}-gpu.png"));
        let mut a: Vec<String> = base.clone();
        a.extend(["-o".into(), cpu.display().to_string()]);
        let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>(), None);
        assert!(out.status.success(), "{tag} cpu: {}", text(&out.stderr));
        let mut a = base.clone();
        a.extend(["--gpu".into(), "-o".into(), gpu.display().to_string()]);
        let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>(), None);
        let err = text(&out.stderr);
        if !out.status.success() && err.contains("adapter") && std::env::var_os("CI").is_none() {
            eprintln!("SKIPPED: no Vulkan adapter: {err}");
            return;
        }
        assert!(out.status.success(), "{tag} gpu: {err}");
        let (c, g) = (pixels(&cpu), pixels(&gpu));
        assert_eq!((c.0, c.1), (g.0, g.1), "{tag}: size");
        // 8-bit output: the GPU may round a channel the other way (filtering in f32 on
        // both, different operation order), never more.
        let worst =
            c.2.iter()
                .zip(&g.2)
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap();
        assert!(worst <= 1, "{tag}: channels differ by up to {worst}/255");
        assert!(c.2.chunks(4).any(|p| p != &c.2[..4]), "{tag}: flat picture");
    }
}

/// An effect pass (`examples/tint.fxo` with `--set`): its shaders, constants and states
/// drawn by both renderers.
#[cfg(feature = "gpu")]
#[test]
fn gpu_and_cpu_draw_the_same_effect_pass() {
    let dir = tmpdir("render-gpu-fx");
    let fx = example("tint.fxo").display().to_string();
    let base = [
        "render",
        &fx,
        "--technique",
        "Tint",
        "--pass",
        "P0",
        "--set",
        "tint=1,0.5,0.75,1",
        "--size",
        "40x24",
    ];
    let cpu = dir.join("fx-cpu.png");
    let gpu = dir.join("fx-gpu.png");
    let mut a = base.to_vec();
    a.extend(["-o", cpu.to_str().unwrap()]);
    let out = run(&a, None);
    assert!(out.status.success(), "cpu: {}", text(&out.stderr));
    let mut a = base.to_vec();
    a.extend(["--gpu", "-o", gpu.to_str().unwrap()]);
    let out = run(&a, None);
    let err = text(&out.stderr);
    if !out.status.success() && err.contains("adapter") && std::env::var_os("CI").is_none() {
        eprintln!("SKIPPED: no Vulkan adapter: {err}");
        return;
    }
    assert!(out.status.success(), "gpu: {err}");
    let (c, g) = (pixels(&cpu), pixels(&gpu));
    assert_eq!((c.0, c.1), (g.0, g.1));
    let worst =
        c.2.iter()
            .zip(&g.2)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
    assert!(worst <= 1, "channels differ by up to {worst}/255");
    assert!(c.2.chunks(4).any(|p| p != &c.2[..4]), "flat picture");
}

#[cfg(not(feature = "gpu"))]
#[test]
fn without_the_feature_gpu_says_how_to_get_it() {
    let dir = tmpdir("render-nogpu");
    let out_png = dir.join("x.png");
    let out = run(
        &[
            "render",
            example("textured.pso").to_str().unwrap(),
            "--gpu",
            "-o",
            out_png.to_str().unwrap(),
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--features gpu"),
        "{}",
        text(&out.stderr)
    );
    // The CPU path of the same command works and writes a picture.
    let out = run(
        &[
            "render",
            example("textured.pso").to_str().unwrap(),
            "-o",
            out_png.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(pixels(&out_png).0, 256);
}
