//! The CPU/GPU differential over shaders an engine shipped (`tests/data/bgfx_dx9`:
//! bgfx's D3D9 pixel shaders, see its README), drawn as `d3dbc render` draws them at
//! 64×64 by the executor and by both GPU back ends ([`d3dbc_gpu::compare`]): no shader
//! may have a semantic difference; the HDR shaders' RGBE decode agrees only because
//! the executor flushes subnormals as the GPU does (under `Denormals::Preserve` it
//! would not), and the dithering hash's differences are precision-sensitive, starting
//! at a `sincos`.

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

#[test]
fn the_rgbe_decode_needs_the_subnormal_rule() {
    let Some(gpu) = support::gpu_with(Backend::Direct) else {
        return;
    };
    use d3dbc::semantics::{Denormals, Semantics};
    use d3dbc_exec::render::Options;
    let mut preserved_semantic = 0;
    for (name, tokens) in shaders() {
        if !name.starts_with("fs_hdr_skybox") && !name.starts_with("fs_hdr_mesh") {
            continue;
        }
        let scene = d3dbc_exec::quick::preview(&tokens, None, 64, 64, &Default::default()).unwrap();
        let g = compare::gpu_image(&gpu, &scene).unwrap();
        let keep = Options {
            sem: Semantics {
                denormals: Denormals::Preserve,
                ..Semantics::default()
            },
            ..Options::default()
        };
        let kept = compare::cpu_images_with(&scene, keep).unwrap();
        let c = compare::classify(&kept, &g);
        eprintln!(
            "{name} with subnormals preserved: {} {:?}",
            c.verdict.name(),
            c.counts
        );
        if c.verdict == Verdict::Semantic {
            preserved_semantic += 1;
            let e = compare::explain(&scene, c.pixel.unwrap()).unwrap();
            let first = e.subnormals.first.expect("the rules part at that pixel");
            assert!(first.instruction.starts_with("exp"), "{name}: {first:?}");
        }
    }
    assert!(
        preserved_semantic > 0,
        "no HDR shader depends on the subnormal rule"
    );
}
