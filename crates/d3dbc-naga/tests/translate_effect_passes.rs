//! Every pass of every corpus effect (Wine's 15 test effects, the 32 fxc 10.1 effects)
//! and of the shipped effects in `crates/d3dbc/tests/data/effects` (FNA's six stock
//! effects, tModLoader's two `.xnb` effects)
//! translates as the linked pair it draws with ([`d3dbc_naga::translate_pass`]) to all
//! five targets: naga validates each linked module, naga's WGSL front end re-parses the
//! WGSL, and `spirv-val`, `glslangValidator` and Tint accept the SPIR-V, GLSL and WGSL
//! files (required under CI, skipped visibly elsewhere). Passes the runtime validator
//! would refuse (a shader with errors), fixed-function passes and passes whose
//! `BeginPass` fails are counted apart, never silently.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use d3dbc::fx::{apply::Values, Effect};
use d3dbc::Severity;
use d3dbc_naga::{translate_pass, Target, TranslateOptions};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn valid(s: &d3dbc::Shader) -> bool {
    !d3dbc::validate::validate(s)
        .iter()
        .any(|f| f.severity == Severity::Error)
}

#[test]
fn every_pass_of_every_corpus_effect_translates_linked_to_every_target() {
    let (Some(wine), Some(fxc)) = (
        common::records("wine_fx.jsonl"),
        common::records("fxc_effects.jsonl"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-fx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = TranslateOptions::default();
    let (mut passes, mut translated, mut fixed, mut invalid, mut failing) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let (mut spv, mut glsl, mut wgsl) = (Vec::new(), Vec::new(), Vec::new());
    let mut n = 0usize;
    let mut elements = 0usize;
    let mut inputs: Vec<(String, Vec<u8>)> = wine
        .iter()
        .chain(&fxc)
        .map(|r| (common::label(r), bytes(&common::dwords(&r["dwords"]))))
        .collect();
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../d3dbc/tests/data/effects");
    let mut files: Vec<_> = std::fs::read_dir(&shipped)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut real = 0;
    for p in files {
        let b = std::fs::read(&p).unwrap();
        let fx = match d3dbc::input::xnb::effect_of(&b) {
            Some(Ok(fx)) => fx,
            Some(Err(_)) => continue,
            None if p.extension().is_some_and(|e| e == "fxb") => b,
            None => continue,
        };
        real += 1;
        inputs.push((p.file_name().unwrap().to_string_lossy().into_owned(), fx));
    }
    assert_eq!(real, 8, "the shipped effects");
    for (label, b) in &inputs {
        let label = label.clone();
        let e = Effect::parse(b).unwrap_or_else(|e| panic!("{label}: {e}"));
        for (t, tech) in e.techniques.iter().enumerate() {
            for p in 0..tech.passes.len() {
                passes += 1;
                let at = format!("{label} {}/{p}", tech.name);
                let shaders = match e.pass_shaders(t, p, &Values::default()) {
                    Ok(s) => s,
                    Err(_) => {
                        failing += 1;
                        continue;
                    }
                };
                let stages: Vec<_> = [&shaders.vertex, &shaders.pixel]
                    .into_iter()
                    .flatten()
                    .collect();
                if stages.is_empty() {
                    fixed += 1;
                    continue;
                }
                if !stages.iter().all(|s| valid(&s.shader)) {
                    invalid += 1;
                    continue;
                }
                let tr = match translate_pass(&e, t, p, &Values::default(), &opts) {
                    Ok(tr) => tr,
                    Err(x) => {
                        failures.push(format!("{at}: {x}"));
                        continue;
                    }
                };
                let both = tr.vertex.is_some() && tr.pixel.is_some();
                for s in [tr.vertex, tr.pixel].into_iter().flatten() {
                    let t = &s.translation;
                    assert_eq!(t.interface.linked, both, "{at}");
                    let stage = t.interface.stage;
                    let emitted = (|| -> Result<(), String> {
                        let words = t.spirv().map_err(|x| x.to_string())?;
                        let w = t.wgsl().map_err(|x| x.to_string())?;
                        naga::front::wgsl::parse_str(&w).map_err(|x| x.emit_to_string(&w))?;
                        let g = t.glsl().map_err(|x| x.to_string())?;
                        t.msl().map_err(|x| x.to_string())?;
                        t.hlsl().map_err(|x| x.to_string())?;
                        let f = dir.join(format!("{n}.spv"));
                        std::fs::write(&f, bytes(&words)).unwrap();
                        spv.push(f);
                        let f = dir.join(format!("{n}.{}", Target::Glsl.extension(stage)));
                        std::fs::write(&f, g).unwrap();
                        glsl.push(f);
                        let f = dir.join(format!("{n}.wgsl"));
                        std::fs::write(&f, w).unwrap();
                        wgsl.push(f);
                        Ok(())
                    })();
                    n += 1;
                    if let Err(x) = emitted {
                        failures.push(format!("{at}: {x}"));
                    }
                    // Every constant register the shader's CTAB names is named after
                    // its effect parameter.
                    for c in &s.constants {
                        assert!(!c.name.is_empty(), "{at}");
                    }
                }
                translated += 1;
            }
        }
        // Every other embedded shader (the shader-array elements a pass selects by
        // parameter value: FNA's BasicEffect and SkinnedEffect hold dozens), alone.
        for code in &e.objects {
            let Ok(shader) = d3dbc::Shader::decode(&d3dbc::fx::to_words(code)) else {
                continue;
            };
            if !valid(&shader) || shader.version.is_software() {
                continue;
            }
            match support::emit(&label, &shader, &opts) {
                Ok(em) => {
                    let f = support::write(&dir, n, &em);
                    n += 1;
                    spv.push(f.spv);
                    glsl.push(f.glsl);
                    wgsl.push(f.wgsl);
                    elements += 1;
                }
                Err(x) => failures.push(x),
            }
        }
    }
    eprintln!(
        "{passes} passes: {translated} translated linked ({} stages), {fixed} fixed-function, \
         {invalid} with a shader the runtime validator rejects, {failing} whose BeginPass fails; \
         {elements} embedded shaders translated alone",
        n - elements
    );
    for f in failures.iter().take(20) {
        eprintln!("FAIL {f}");
    }
    let mut tool_failures = Vec::new();
    if support::tool("spirv-val", "--version") {
        let bad = support::spirv_val(&spv);
        eprintln!(
            "spirv-val: {}/{} accepted",
            spv.len() - bad.len(),
            spv.len()
        );
        tool_failures.extend(bad);
    }
    if support::tool("glslangValidator", "--version") {
        let bad = support::glslang(&glsl);
        eprintln!(
            "glslangValidator: {} error lines over {} files",
            bad.len(),
            glsl.len()
        );
        tool_failures.extend(bad);
    }
    if let Some(t) = support::tint_compiler() {
        let bad = support::tint(&t, &wgsl);
        eprintln!(
            "{}: {}/{} accepted",
            t.label(),
            wgsl.len() - bad.len(),
            wgsl.len()
        );
        tool_failures.extend(bad);
    }
    for f in tool_failures.iter().take(20) {
        eprintln!("TOOL {f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} passes failed", failures.len());
    assert!(
        tool_failures.is_empty(),
        "{} validator failures",
        tool_failures.len()
    );
    // The corpus effects hold this many programmable passes; fewer means a loader broke.
    assert!(translated >= 90, "only {translated} passes translated");
}
