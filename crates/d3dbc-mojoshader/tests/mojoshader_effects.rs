//! The effect half of the MojoShader face against MojoShader: `tests/c/effect_dump.c`,
//! a program written for MojoShader's effect API, is built twice — against MojoShader
//! 6333f74 (its sources from `cargo xtask peers --fetch-only`) and against
//! `libd3dbc_mojoshader` with d3dbc's header — and run, one process per effect, on every
//! effect of the corpus (`wine_fx.jsonl`, `fxc_effects.jsonl`). It compiles the effect
//! through a shader context whose `compileShader` is `MOJOSHADER_parse` (`bytecode`),
//! prints the parameter, technique, pass, state and object tables, runs every technique
//! (Begin, BeginPass, CommitChanges after new parameter values, EndPass, End: the shaders
//! bound, the state changes, every uniform register written), clones and deletes.
//!
//! The two outputs are compared field by field. What must hold: the face never crashes
//! and frees every block it takes from the context's allocator; every field is equal,
//! except for the effects listed in [`KNOWN`], each with the reason MojoShader is wrong
//! against Windows (D3DX, as Wine's effect tests state it) and the fields that may
//! differ. A listed difference that no longer occurs fails too (the list stays exact).
//!
//! FNA's stock effects (`FNA-XNA/FNA`, `src/Graphics/Effect/StockEffects/FXB/*.fxb` and
//! `src/Graphics/Effect/YUVToRGBA/*.fxb`: the effects FNA ships and every FNA game
//! loads) run through the same comparison when `D3DBC_FNA_EFFECTS` names a folder that
//! holds them (the README says how to get them); without it that test says it skips.
//!
//! Also here: the effect structs of `types.rs` against the face header as a C compiler
//! lays them out (that header is checked against MojoShader's by `d3dbc-capi`).

mod cbuild;
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use cbuild::{build_face, build_mojoshader, lib_dir};

/// How MojoShader's answer for a listed effect differs.
#[derive(Debug)]
enum Known {
    /// MojoShader crashes (a failed assertion or a bad memory access); the tables it
    /// printed before, if any, must still be equal.
    Crashes,
    /// MojoShader refuses the effect, which Windows (and the face) accepts.
    Refuses,
    /// These fields differ; every other field is equal.
    Fields(&'static [&'static str]),
}

/// The listed differences: (corpus file, record index, what differs, why MojoShader is
/// wrong against Windows).
const KNOWN: &[(&str, usize, Known, &str)] = &[
    // ---- MojoShader refuses effects D3DX loads ----
    (
        "wine_fx.jsonl",
        2,
        Known::Refuses,
        "test_effect_parameter_value_blob_object: a `VertexShader = NULL` state has no code; \
         MojoShader compiles the empty object and fails the effect, D3DX binds no shader",
    ),
    (
        "wine_fx.jsonl",
        8,
        Known::Refuses,
        "test_effect_shared_parameters_blob: `VertexShader = NULL` (as above)",
    ),
    (
        "wine_fx.jsonl",
        11,
        Known::Refuses,
        "test_effect_null_shader_blob: `VertexShader = NULL` (as above)",
    ),
    (
        "wine_fx.jsonl",
        10,
        Known::Refuses,
        "test_effect_unsupported_shader_blob: `VertexShader = <vs_arr[1]>` names a parameter; \
         MojoShader compiles the name as bytecode and fails, D3DX binds that parameter's shader",
    ),
    (
        "wine_fx.jsonl",
        12,
        Known::Refuses,
        "effect_code: `VertexShader = <vs>` names a parameter (as above)",
    ),
    (
        "fxc_effects.jsonl",
        1,
        Known::Refuses,
        "Effect_EmbedAssembly: `PixelShader = <baz>` names a parameter (as above)",
    ),
    (
        "fxc_effects.jsonl",
        8,
        Known::Refuses,
        "Effect_Test: `PixelShader = <Test4PS>` names a parameter (as above)",
    ),
    // ---- MojoShader crashes ----
    (
        "wine_fx.jsonl",
        5,
        Known::Crashes,
        "test_effect_states_effect_blob: MojoShader reads a state's value as an object id \
         and writes outside its object table (heap corruption)",
    ),
    (
        "wine_fx.jsonl",
        6,
        Known::Crashes,
        "test_effect_preshader_effect_blob: a struct member that is a struct fails \
         MojoShader's assertion (nested structs are not read)",
    ),
    (
        "fxc_effects.jsonl",
        7,
        Known::Crashes,
        "Effect_Structs: nested struct members (as above)",
    ),
    (
        "fxc_effects.jsonl",
        0,
        Known::Crashes,
        "Effect_ArrayIndex: MojoShader stages the selector's int parameter as raw bits and \
         reads outside the shader array",
    ),
    (
        "fxc_effects.jsonl",
        4,
        Known::Crashes,
        "Effect_SamplerArray: MojoShader reads one sampler_state block for a sampler array \
         and resolves the other elements' texture names outside its tables",
    ),
    (
        "fxc_effects.jsonl",
        14,
        Known::Crashes,
        "reflect: MojoShader crashes; the face's MOJOSHADER_parse refuses the shader's \
         preshader (`d3ds_dotswiz`, outside MojoShader's opcode set), so the face \
         answers that error",
    ),
    // ---- Values D3DX computes differently ----
    (
        "wine_fx.jsonl",
        4,
        Known::Fields(&["param", "annotation", "cloneparam"]),
        "test_effect_variable_names_blob: struct defaults (k.j = 4, l.j = 5, m.j = 6 in \
         Wine's test); MojoShader reads struct values from the type description and copies \
         nothing for members that are not arrays, leaving 0",
    ),
    (
        "fxc_effects.jsonl",
        16,
        Known::Fields(&["uniform"]),
        "HDRLighting: the preshader's `exp` is 2^x in D3DX (Wine's test_effect_preshader_ops); \
         MojoShader computes e^x",
    ),
    (
        "fxc_effects.jsonl",
        29,
        Known::Fields(&["uniform"]),
        "skybox01: the preshader's `dot` writes its sum to the first component in D3DX; \
         MojoShader writes it to every component, over the results of earlier instructions",
    ),
    (
        "fxc_effects.jsonl",
        26,
        Known::Fields(&["bind"]),
        "SkinnedMesh: the array selector reads the int parameter CurNumBones; MojoShader \
         copies its bits into the preshader's float registers (2 reads as 2.8e-45, so \
         element 0), D3DX converts it (element 2)",
    ),
];

/// The fields of the tables (printed before any technique runs).
const TABLE_FIELDS: &[&str] = &[
    "errors",
    "counts",
    "param",
    "annotation",
    "technique",
    "pass",
    "state",
    "object",
];

/// Output of one run: field → lines; `None` when the program died.
struct Run {
    fields: BTreeMap<String, Vec<String>>,
    ok: bool,
    stderr: String,
}

fn run(exe: &Path, file: &Path) -> Run {
    // The library beside this test, not a stale copy on cargo's LD_LIBRARY_PATH.
    let out = Command::new(exe)
        .env("LD_LIBRARY_PATH", lib_dir())
        .arg(file)
        .output()
        .expect("run effect_dump");
    let mut fields: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let (field, rest) = line.split_once(' ').unwrap_or((line, ""));
        fields
            .entry(field.to_string())
            .or_default()
            .push(rest.to_string());
    }
    Run {
        fields,
        ok: out.status.success(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn differing(a: &Run, b: &Run, only: Option<&[&str]>) -> Vec<String> {
    let mut keys: Vec<&String> = a.fields.keys().chain(b.fields.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| k.as_str() != "leak")
        .filter(|k| only.is_none_or(|o| o.contains(&k.as_str())))
        .filter(|k| a.fields.get(*k) != b.fields.get(*k))
        .cloned()
        .collect()
}

fn first_difference(a: &Run, b: &Run, field: &str) -> String {
    let (x, y) = (
        a.fields.get(field).cloned().unwrap_or_default(),
        b.fields.get(field).cloned().unwrap_or_default(),
    );
    for i in 0..x.len().max(y.len()) {
        if x.get(i) != y.get(i) {
            return format!(
                "{field} #{i}: MojoShader {:?}, face {:?}",
                x.get(i),
                y.get(i)
            );
        }
    }
    String::new()
}

#[test]
fn effects_against_mojoshader_on_the_corpus() {
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let mut effects = Vec::new();
    for file in ["wine_fx.jsonl", "fxc_effects.jsonl"] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for (i, r) in recs.iter().enumerate() {
            effects.push((file, i, common::label(r), common::dwords(&r["dwords"])));
        }
    }
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mojoshader_effects");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mojo = build_mojoshader("effect_dump", &src, &out, "-O1");
    let face = build_face("effect_dump", &out, "-O1");

    let mut failures = Vec::new();
    let (mut equal, mut listed) = (0usize, Vec::new());
    for (file, index, label, words) in &effects {
        let path = out.join(format!("{file}.{index}.fxo"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).unwrap();
        let m = run(&mojo, &path);
        let f = run(&face, &path);
        let name = format!("{file} #{index} ({label})");
        if !f.ok {
            failures.push(format!("{name}: the face's run failed: {}", f.stderr));
            continue;
        }
        if let Some(leak) = f.fields.get("leak").filter(|l| l.as_slice() != ["0"]) {
            failures.push(format!("{name}: the face leaked {leak:?} blocks"));
        }
        let known = KNOWN
            .iter()
            .find(|(kf, ki, _, _)| kf == file && ki == index);
        let accepts = |r: &Run| {
            r.fields
                .get("errors")
                .is_some_and(|e| e.as_slice() == ["0"])
        };
        let (m_accepts, f_accepts) = (accepts(&m), accepts(&f));
        match known {
            None => {
                if !m.ok {
                    failures.push(format!("{name}: MojoShader crashed: {}", m.stderr.trim()));
                    continue;
                }
                let diff = differing(&m, &f, None);
                if diff.is_empty() {
                    equal += 1;
                } else {
                    failures.push(format!(
                        "{name}: fields differ: {diff:?}; first: {}",
                        first_difference(&m, &f, &diff[0])
                    ));
                }
            }
            Some((_, _, Known::Crashes, why)) => {
                if m.ok {
                    failures.push(format!(
                        "{name}: listed as crashing MojoShader, which now runs"
                    ));
                }
                // The tables MojoShader printed before it died must match.
                if m.fields.contains_key("run") || m.fields.contains_key("clone") {
                    let diff = differing(&m, &f, Some(TABLE_FIELDS));
                    if !diff.is_empty() {
                        failures.push(format!(
                            "{name}: table fields differ: {diff:?}; first: {}",
                            first_difference(&m, &f, &diff[0])
                        ));
                    }
                }
                listed.push(format!("{name}: MojoShader crashes; {why}"));
            }
            Some((_, _, Known::Refuses, why)) => {
                if m_accepts || !m.ok {
                    failures.push(format!(
                        "{name}: listed as refused by MojoShader, which now answers {:?}",
                        m.fields.get("errors")
                    ));
                }
                if !f_accepts {
                    failures.push(format!(
                        "{name}: the face refuses it too: {:?}",
                        f.fields.get("error")
                    ));
                }
                listed.push(format!("{name}: MojoShader refuses; {why}"));
            }
            Some((_, _, Known::Fields(allowed), why)) => {
                if !m.ok {
                    failures.push(format!("{name}: MojoShader crashed: {}", m.stderr.trim()));
                    continue;
                }
                let diff = differing(&m, &f, None);
                if diff.is_empty() {
                    failures.push(format!("{name}: listed as differing, now equal"));
                }
                for d in &diff {
                    if !allowed.contains(&d.as_str()) {
                        failures.push(format!(
                            "{name}: field {d} differs, not listed: {}",
                            first_difference(&m, &f, d)
                        ));
                    }
                }
                listed.push(format!("{name}: {diff:?} differ; {why}"));
            }
        }
    }
    let report = format!(
        "effects: {} compared, {equal} equal field by field, {} listed differences:\n  {}",
        effects.len(),
        listed.len(),
        listed.join("\n  ")
    );
    println!("{report}");
    std::fs::write(out.join("report.txt"), &report).unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}\n\n{report}",
        failures.len(),
        failures.join("\n")
    );
}

/// FNA's effects that MojoShader crashes on in this run, and why MojoShader is wrong
/// against Windows. The tables it printed before it died must still be equal.
const KNOWN_FNA: &[(&str, &str)] = &[(
    "DualTextureEffect.fxb",
    "the pixel shader selector `PSArray[PSIndices[ShaderIndex]]` reads PSIndices, which the \
     run's new values fill with 0–3 while PSArray has 2 elements; D3DX (and the face) binds \
     no new shader for an index outside the array, MojoShader reads past it \
     (mojoshader_effects.c:1888, SELECT_SHADER_FROM_PRESHADER) and crashes. FNA itself \
     only stores valid indices there",
)];

/// FNA's shipped effects (every `*.fxb` in `$D3DBC_FNA_EFFECTS`), field by field against
/// MojoShader; none may differ but those of [`KNOWN_FNA`].
#[test]
fn fna_effects_against_mojoshader() {
    let Some(dir) = std::env::var_os("D3DBC_FNA_EFFECTS") else {
        common::skipped("D3DBC_FNA_EFFECTS is not set (FNA's .fxb effects, README)");
        return;
    };
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("D3DBC_FNA_EFFECTS is a folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("fxb")))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .fxb in {}",
        Path::new(&dir).display()
    );
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fna_effects");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mojo = build_mojoshader("effect_dump", &src, &out, "-O1");
    let face = build_face("effect_dump", &out, "-O1");
    let (mut equal, mut failures, mut listed) = (Vec::new(), Vec::new(), Vec::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (m, f) = (run(&mojo, path), run(&face, path));
        if !f.ok {
            failures.push(format!("{name}: the face's run failed: {}", f.stderr));
            continue;
        }
        if let Some((_, why)) = KNOWN_FNA.iter().find(|(k, _)| *k == name) {
            if m.ok {
                failures.push(format!(
                    "{name}: listed as crashing MojoShader, which now runs"
                ));
            }
            let diff = differing(&m, &f, Some(TABLE_FIELDS));
            if !diff.is_empty() {
                failures.push(format!(
                    "{name}: table fields differ: {diff:?}; first: {}",
                    first_difference(&m, &f, &diff[0])
                ));
            }
            listed.push(format!("{name}: MojoShader crashes; {why}"));
            continue;
        }
        if !m.ok {
            failures.push(format!("{name}: MojoShader crashed: {}", m.stderr.trim()));
            continue;
        }
        if let Some(leak) = f.fields.get("leak").filter(|l| l.as_slice() != ["0"]) {
            failures.push(format!("{name}: the face leaked {leak:?} blocks"));
        }
        if m.fields.get("errors").map(Vec::as_slice) != Some(&["0".to_string()][..]) {
            failures.push(format!(
                "{name}: MojoShader refuses: {:?}",
                m.fields.get("error")
            ));
        }
        let diff = differing(&m, &f, None);
        if diff.is_empty() {
            let runs = f.fields.get("run").map_or(0, Vec::len);
            equal.push(format!("{name} ({runs} technique runs)"));
        } else {
            failures.push(format!(
                "{name}: fields differ: {diff:?}; first: {}",
                first_difference(&m, &f, &diff[0])
            ));
        }
    }
    let report = format!(
        "FNA effects: {} compared, {} equal field by field: {}; {} listed:\n  {}",
        files.len(),
        equal.len(),
        equal.join(", "),
        listed.len(),
        listed.join("\n  ")
    );
    println!("{report}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}\n\n{report}",
        failures.len(),
        failures.join("\n")
    );
}

/// `(C type, C field or "" for the size, Rust size or offset)`.
macro_rules! layout {
    ($($ty:ident { $($field:ident),* }),* $(,)?) => {
        vec![$(
            (stringify!($ty), String::new(), std::mem::size_of::<d3dbc_mojoshader::types::$ty>()),
            $((
                stringify!($ty),
                stringify!($field).trim_start_matches("r#").to_string(),
                std::mem::offset_of!(d3dbc_mojoshader::types::$ty, $field),
            ),)*
        )*]
    };
}

/// The effect structs of `types.rs` against the face header, as a C compiler lays it
/// out (size of each, offset of each field).
#[test]
fn effect_types_match_the_face_header() {
    let rows = layout![
        MOJOSHADER_effectValue {
            name,
            semantic,
            r#type,
            value_count,
            values
        },
        MOJOSHADER_effectState { r#type, value },
        MOJOSHADER_effectSamplerState { r#type, value },
        MOJOSHADER_effectParam {
            value,
            annotation_count,
            annotations
        },
        MOJOSHADER_effectPass {
            name,
            state_count,
            states,
            annotation_count,
            annotations
        },
        MOJOSHADER_effectTechnique {
            name,
            pass_count,
            passes,
            annotation_count,
            annotations
        },
        MOJOSHADER_samplerStateRegister {
            sampler_name,
            sampler_register,
            sampler_state_count,
            sampler_states
        },
        MOJOSHADER_effectShader {
            r#type,
            technique,
            pass,
            is_preshader,
            preshader_param_count,
            preshader_params,
            param_count,
            params,
            sampler_count,
            samplers,
            shader
        },
        MOJOSHADER_effectSamplerMap { r#type, name },
        MOJOSHADER_effectString { r#type, string },
        MOJOSHADER_effectObject {},
        MOJOSHADER_effectStateChanges {
            render_state_change_count,
            render_state_changes,
            sampler_state_change_count,
            sampler_state_changes,
            vertex_sampler_state_change_count,
            vertex_sampler_state_changes
        },
        MOJOSHADER_effectShaderContext {
            compileShader,
            shaderAddRef,
            deleteShader,
            getParseData,
            bindShaders,
            getBoundShaders,
            mapUniformBufferMemory,
            unmapUniformBufferMemory,
            getError,
            shaderContext,
            m,
            f,
            malloc_data
        },
        MOJOSHADER_effect {
            error_count,
            errors,
            param_count,
            params,
            technique_count,
            techniques,
            object_count,
            objects,
            current_technique,
            current_pass,
            restore_shader_state,
            state_changes,
            current_vert_raw,
            current_pixl_raw,
            current_vert,
            current_pixl,
            prev_vertex_shader,
            prev_pixel_shader,
            ctx
        },
    ];
    let mut c = String::from(
        "#define MOJOSHADER_EFFECT_SUPPORT 1\n#include <stdio.h>\n#include <stddef.h>\n\
         #include \"mojoshader.h\"\nint main(void) {\n",
    );
    for (ty, field, _) in &rows {
        if field.is_empty() {
            c.push_str(&format!("    printf(\"%zu\\n\", sizeof ({ty}));\n"));
        } else {
            c.push_str(&format!(
                "    printf(\"%zu\\n\", offsetof({ty}, {field}));\n"
            ));
        }
    }
    c.push_str("    return 0;\n}\n");
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("effect_layout");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("layout.c"), c).unwrap();
    let header = Path::new(env!("CARGO_MANIFEST_DIR")).join("../d3dbc-capi/face");
    let st = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Werror", "-I"])
        .arg(&header)
        .arg(out.join("layout.c"))
        .arg("-o")
        .arg(out.join("layout"))
        .status()
        .expect("cc");
    assert!(st.success(), "building the layout probe failed");
    let text = Command::new(out.join("layout")).output().unwrap().stdout;
    let c_values: Vec<usize> = String::from_utf8_lossy(&text)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(c_values.len(), rows.len());
    let wrong: Vec<String> = rows
        .iter()
        .zip(&c_values)
        .filter(|((_, _, rust), c)| rust != *c)
        .map(|((ty, field, rust), c)| format!("{ty}.{field}: Rust {rust}, C {c}"))
        .collect();
    assert!(wrong.is_empty(), "layouts differ: {wrong:#?}");
}
