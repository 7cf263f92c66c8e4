//! The HLSL target drawn on lavapipe: a sample of the execution oracles' scenes (every
//! third record of `vkd3d_exec.jsonl` and of `wine_exec.jsonl`) replayed with every pixel
//! shader taken through its shader model 5.0 HLSL (`Translation::hlsl`), vkd3d-compiler's
//! SPIR-V back end (`-x hlsl -b spirv-binary -p ps_5_0`) and naga's SPIR-V front end,
//! bound by the translation's interface ([`d3dbc_gpu::Gpu::set_pixel_override`]). The
//! probes hold Windows' values, which the CPU executor reproduces (every probe of both
//! files, `d3dbc-exec`'s oracle tests); they must pass here as they do for the
//! translation's own module. vkd3d-compiler comes from `D3DBC_VKD3D_COMPILER`, else
//! `target/tools/vkd3d/vkd3d-compiler`, else `PATH`; under `CI=true` it is required.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use d3dbc::target::interface::{self as itf, hlsl as reg, Interface};
use d3dbc_exec::oracle;
use d3dbc_naga::Translation;

/// vkd3d-compiler, or `None` (skipped visibly; required under CI).
fn compiler() -> Option<PathBuf> {
    let built =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/vkd3d/vkd3d-compiler");
    let found = std::env::var_os("D3DBC_VKD3D_COMPILER")
        .map(PathBuf::from)
        .into_iter()
        .chain([built, PathBuf::from("vkd3d-compiler")])
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "vkd3d-compiler missing: CI=true requires it");
        eprintln!("SKIPPED hlsl_through_vkd3d: vkd3d-compiler not found");
    }
    found
}

/// The `LOCn` semantics of the pixel shader's inputs in the order the HLSL declares them:
/// vkd3d-compiler gives input `k` SPIR-V location `k`.
fn input_locations(hlsl: &str) -> Vec<u32> {
    let Some(start) = hlsl.find("struct FragmentInput_main {") else {
        return Vec::new();
    };
    hlsl[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("};"))
        .filter_map(|l| l.split(": LOC").nth(1)?.trim_end_matches(';').parse().ok())
        .collect()
}

/// The interface binding of the resource vkd3d-compiler names `name` (`t#`, `s#`, or
/// `cb#_…` for the constant buffer at `register(b#)`).
fn binding(iface: &Interface, name: &str) -> Result<u32, String> {
    let stage = |n: &str| -> Result<&itf::SamplerBinding, String> {
        let n: u32 = n.parse().map_err(|_| format!("resource {name}"))?;
        iface
            .samplers
            .iter()
            .find(|s| s.stage == n)
            .ok_or(format!("no sampler stage {n}"))
    };
    if let Some(r) = name.strip_prefix("cb") {
        let r: u32 = r
            .split('_')
            .next()
            .and_then(|r| r.parse().ok())
            .ok_or(format!("resource {name}"))?;
        let block = match r {
            reg::FLOAT_CONSTANTS => &iface.float_constants,
            reg::INT_CONSTANTS => &iface.int_constants,
            reg::BOOL_CONSTANTS => &iface.bool_constants,
            reg::DRIVER => &iface.driver,
            _ => &None,
        };
        block
            .as_ref()
            .map(|b| b.binding)
            .ok_or(format!("cbuffer b{r} not in the interface"))
    } else if let Some(n) = name.strip_prefix('t') {
        Ok(stage(n)?.texture_binding)
    } else if let Some(n) = name.strip_prefix('s') {
        Ok(stage(n)?.sampler_binding)
    } else {
        Err(format!("unknown resource {name}"))
    }
}

static FILE: AtomicUsize = AtomicUsize::new(0);

/// The linked pixel shader's HLSL through vkd3d-compiler to SPIR-V, parsed by naga and
/// rebound to the translation's interface.
fn through_vkd3d(compiler: &Path, t: &Translation) -> Result<naga::Module, String> {
    let hlsl = t.hlsl().map_err(|e| e.to_string())?;
    let n = FILE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let src = dir.join(format!("d3dbc-gpu-vkd3d-{}-{n}.hlsl", std::process::id()));
    let spv = src.with_extension("spv");
    std::fs::write(&src, &hlsl).map_err(|e| e.to_string())?;
    let o = Command::new(compiler)
        .args([
            "-x",
            "hlsl",
            "-b",
            "spirv-binary",
            "-p",
            "ps_5_0",
            "-e",
            "main",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&spv)
        .output()
        .map_err(|e| e.to_string())?;
    let bytes = std::fs::read(&spv);
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&spv);
    if !o.status.success() {
        return Err(format!(
            "vkd3d-compiler: {}\n{hlsl}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let bytes = bytes.map_err(|e| e.to_string())?;
    let mut m = naga::front::spv::parse_u8_slice(&bytes, &Default::default())
        .map_err(|e| format!("naga reads vkd3d's SPIR-V: {e}"))?;
    for (_, gv) in m.global_variables.iter_mut() {
        if gv.binding.is_some() {
            let name = gv.name.clone().unwrap_or_default();
            gv.binding = Some(naga::ResourceBinding {
                group: itf::GROUP,
                binding: binding(&t.interface, &name)?,
            });
        }
    }
    let locations = input_locations(&hlsl);
    for arg in &mut m.entry_points[0].function.arguments {
        if let Some(naga::Binding::Location { location, .. }) = &mut arg.binding {
            *location = *locations
                .get(*location as usize)
                .ok_or(format!("input location {location} not in the HLSL"))?;
        }
    }
    Ok(m)
}

fn replay(file: &str, every: usize) {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let Some(vkd3d) = compiler() else {
        return;
    };
    let Some(mut gpu) = support::gpu_with(d3dbc_gpu::Backend::Naga) else {
        return;
    };
    gpu.set_pixel_override(Some(Box::new(move |t: &Translation| {
        through_vkd3d(&vkd3d, t)
    })));
    let recs = oracle::load(&dir.join(file)).expect("oracle loads");
    let (mut records, mut pass, mut failed, mut undrawable) = (0, 0, Vec::new(), Vec::new());
    for rec in recs.iter().step_by(every) {
        records += 1;
        for o in d3dbc_gpu::replay(&gpu, rec) {
            match o.failure {
                None => pass += 1,
                // The other tools' limits, not the HLSL's: vkd3d-compiler failing on it
                // (an internal assertion), naga's SPIR-V front end or validator
                // refusing vkd3d-compiler's module, or that module's resource
                // declarations not matching the draw's layout. Listed, counted, and
                // kept below a bound.
                Some(f)
                    if f.starts_with("shader: vkd3d-compiler")
                        || f.starts_with("shader: naga")
                        || f.contains("is not available in the pipeline layout") =>
                {
                    undrawable.push(format!("{}: {}", o.probe.label, first_line(&f)))
                }
                Some(f) => failed.push(format!(
                    "{}: expected {:?}: {f}",
                    o.probe.label,
                    o.probe.expect_f32()
                )),
            }
        }
    }
    eprintln!(
        "{file}, every {every}th record ({records}), pixel shaders through HLSL and vkd3d-compiler's SPIR-V on {}: probes: {pass} passed, {} failed, {} not drawable through the other tools:\n  {}",
        gpu.adapter_name,
        failed.len(),
        undrawable.len(),
        undrawable.join("\n  ")
    );
    assert!(pass > 0, "{file}: no probe ran");
    assert!(
        undrawable.len() * 5 <= pass,
        "{file}: {} probes not drawable through vkd3d-compiler and naga (more than a fifth of the {pass} that passed)",
        undrawable.len()
    );
    assert!(
        failed.is_empty(),
        "{file}: {} probes failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[test]
fn vkd3d_exec_sample_through_hlsl_passes_its_probes() {
    replay("vkd3d_exec.jsonl", 3);
}

#[test]
fn wine_exec_sample_through_hlsl_passes_its_probes() {
    replay("wine_exec.jsonl", 3);
}

#[test]
fn inputs_are_read_in_declaration_order() {
    let hlsl = "struct FragmentInput_main {\n    float4 color0_ : LOC8;\n    float4 t_1 : LOC3;\n    float4 p : SV_Position;\n};\n";
    assert_eq!(input_locations(hlsl), vec![8, 3]);
}
