//! The CPU/GPU differential over shaders an engine shipped (`tests/data/bgfx_dx9`:
//! bgfx's D3D9 pixel shaders, see its README), drawn as `d3dbc render` draws them at
//! 64×64 by the executor and by both GPU back ends ([`d3dbc_gpu::compare`]): no shader
//! may have a semantic difference, and a precision-sensitive pixel's trace must part
//! at an approximated instruction or a `mad`. With an RGBE texture whose dark cells
//! have a zero exponent, the HDR shaders' decode agrees only because the executor
//! flushes subnormals as the GPU does: preserving them, `fs_hdr_tonemap` differs, and
//! the trace shows where the rules part: an `rcp` of a decoded 1.49e38 whose result,
//! 6.7e-39, is subnormal.

mod support;

use d3dbc_gpu::compare::{self, Verdict};
use d3dbc_gpu::Backend;

fn shaders() -> Vec<(String, Vec<u32>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bgfx_dx9");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "bin") {
            let found = d3dbc::input::read_any(&std::fs::read(&p).unwrap()).unwrap();
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            out.push((name, found[0].tokens.clone()));
        }
    }
    out.sort();
    assert_eq!(out.len(), 12, "the shaders of {}", dir.display());
    out
}

#[test]
fn shipped_shaders_have_no_semantic_difference() {
    let Some(direct) = support::gpu_with(Backend::Direct) else {
        return;
    };
    let Some(naga) = support::gpu_with(Backend::Naga) else {
        return;
    };
    let mut table = String::new();
    let mut semantic = Vec::new();
    let mut verdicts = std::collections::HashMap::new();
    for (name, tokens) in shaders() {
        let scene = d3dbc_exec::quick::preview(&tokens, None, 64, 64, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let cpu = compare::cpu_images(&scene).unwrap();
        let d = compare::compare(&direct, &scene, &cpu).unwrap();
        let n = compare::compare(&naga, &scene, &cpu).unwrap();
        let worst = d.verdict.max(n.verdict);
        let c = if d.verdict >= n.verdict { &d } else { &n };
        let mut why = String::new();
        if let (true, Some(px)) = (worst >= Verdict::PrecisionSensitive, c.pixel) {
            let e = compare::explain(&scene, px).unwrap();
            let ins = |s: &Option<d3dbc_exec::divergence::Step>| {
                s.as_ref().map(|s| s.instruction.clone())
            };
            why = format!(
                " at {px:?}: precision {:?} → {:?}; fused mad {:?} → {:?}",
                ins(&e.precision.first),
                ins(&e.precision.amplified),
                ins(&e.fused.first),
                ins(&e.fused.amplified),
            );
            if worst == Verdict::PrecisionSensitive {
                // The trace shows an approximated instruction, or a mad, where the runs
                // part.
                let f = [ins(&e.precision.first), ins(&e.fused.first)];
                assert!(
                    f.iter().flatten().any(|f| {
                        [
                            "sincos", "exp", "log", "rcp", "rsq", "nrm", "pow", "lit", "mad",
                        ]
                        .iter()
                        .any(|op| f.starts_with(op))
                    }),
                    "{name}: precision-sensitive, yet the runs part at {f:?}"
                );
            }
        }
        table.push_str(&format!(
            "{name:28} direct: {:20} naga: {:20} {:?}{why}\n",
            d.verdict.name(),
            n.verdict.name(),
            c.counts
        ));
        if worst == Verdict::Semantic {
            semantic.push(name.clone());
        }
        verdicts.insert(name, worst);
    }
    eprintln!("{table}");
    assert!(
        semantic.is_empty(),
        "semantic differences: {semantic:?}\n{table}"
    );
}

/// An RGBE checkerboard of `kind`: the dark cells' alpha (the shared exponent) is 0,
/// so `exp2(255·a − 128)` is 2⁻¹²⁸, a subnormal; the light cells' 255.
fn rgbe_checkerboard(kind: d3dbc_exec::draw::TextureKind) -> d3dbc_exec::draw::Texture {
    let mut t = d3dbc_exec::quick::checkerboard(kind, 32);
    for px in t.data.chunks_exact_mut(4) {
        px[3] = if px[0] == 0x40 { 0 } else { 0xFF };
    }
    t
}

#[test]
fn the_rgbe_decode_needs_the_subnormal_rule() {
    let Some(direct) = support::gpu_with(Backend::Direct) else {
        return;
    };
    let Some(naga) = support::gpu_with(Backend::Naga) else {
        return;
    };
    use d3dbc::{Denormals, Semantics};
    use d3dbc_exec::draw::TextureKind;
    use d3dbc_exec::render::Options;
    let mut preserved_semantic = 0;
    for (name, tokens) in shaders() {
        let kind = match name.as_str() {
            "fs_hdr_skybox" | "fs_hdr_mesh" => TextureKind::Cube,
            "fs_hdr_tonemap" => TextureKind::Tex2d,
            _ => continue,
        };
        let tex = std::sync::Arc::new(rgbe_checkerboard(kind));
        let set = d3dbc_exec::Inputs {
            textures: vec![(0, tex)],
            ..Default::default()
        };
        let scene = d3dbc_exec::quick::preview(&tokens, None, 64, 64, &set).unwrap();
        // Flushed, as the GPU does: no semantic difference on either back end.
        let cpu = compare::cpu_images(&scene).unwrap();
        for gpu in [&direct, &naga] {
            let c = compare::compare(gpu, &scene, &cpu).unwrap();
            eprintln!("{name} (RGBE texture): {} {:?}", c.verdict.name(), c.counts);
            assert!(c.verdict < Verdict::Undefined, "{name}: {c:?}");
        }
        // Preserved, the CPU draws what the GPU does not.
        let keep = Options {
            sem: Semantics {
                denormals: Denormals::Preserve,
                ..Semantics::default()
            },
            ..Options::default()
        };
        let kept = compare::cpu_images_with(&scene, keep).unwrap();
        let g = compare::gpu_image(&direct, &scene).unwrap();
        let c = compare::classify(&kept, &g);
        eprintln!(
            "{name} (RGBE texture) with subnormals preserved: {} {:?}",
            c.verdict.name(),
            c.counts
        );
        // Beyond the precision range: infinite outputs (rcp of 2^-128 kept) or colours.
        if c.verdict > Verdict::PrecisionSensitive {
            preserved_semantic += 1;
            // The executor's trace shows where the two rules part.
            let e = compare::explain(&scene, c.pixel.unwrap()).unwrap();
            let first = e.subnormals.first.expect("the rules part at that pixel");
            eprintln!(
                "{name}: the subnormal rule first matters at `{}`",
                first.instruction
            );
            // fs_hdr_tonemap: `rcp` of the decoded 1.49e38, 6.7e-39, subnormal.
            assert!(
                ["exp", "rcp"]
                    .iter()
                    .any(|op| first.instruction.starts_with(op))
                    && first
                        .a
                        .iter()
                        .zip(&first.b)
                        .any(|(a, b)| a.to_bits() == 0 && b.abs() < f32::MIN_POSITIVE && *b != 0.0),
                "{name}: {first:?}"
            );
        }
    }
    assert!(
        preserved_semantic > 0,
        "no HDR shader depends on the subnormal rule"
    );
}
