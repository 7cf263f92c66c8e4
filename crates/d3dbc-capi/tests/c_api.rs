//! The C API from C: `tests/c/native.c` is compiled with `cc -Wall -Wextra -Werror
//! -pedantic` against `include/d3dbc.h` and the built `libd3dbc_capi`, runs every
//! native function on corpus inputs (shaders of every version, assembly text,
//! effects), and what it writes must equal the answers of the Rust libraries for the
//! same inputs: the translation, listing and bytecode bytes, the validator's findings,
//! the interface and constant table, every pass of every effect (states, shaders,
//! constants).

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use d3dbc::fx::apply::{flatten, Values};
use d3dbc::fx::Effect;
use d3dbc::print::PrintOptions;
use d3dbc::{input, report};

/// The directory holding the built `libd3dbc_capi.so`: beside the test binary (in
/// `deps/`, where `cargo test` leaves it), or the profile folder above.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    if deps.join("libd3dbc_capi.so").is_file() {
        deps
    } else {
        deps.parent().unwrap().to_path_buf()
    }
}

/// Compiles `tests/c/NAME.c` against the header and the shared library.
pub fn build_c(name: &str, out: &Path) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = out.join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let lib = lib_dir();
    assert!(
        lib.join("libd3dbc_capi.so").is_file(),
        "{}/libd3dbc_capi.so not built",
        lib.display()
    );
    let st = Command::new(&cc)
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-O1",
        ])
        .arg("-I")
        .arg(dir.join("include"))
        .arg(dir.join(format!("tests/c/{name}.c")))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-ld3dbc_capi")
        .status()
        .expect("cc");
    assert!(st.success(), "{cc} failed on tests/c/{name}.c");
    exe
}

/// One line of the manifest and what the Rust libraries say it must produce.
struct Job {
    line: String,
    out: PathBuf,
    /// `Ok(bytes)`, or `Err(())` where the call must fail.
    expected: Result<Vec<u8>, ()>,
    what: String,
}

fn words_bytes(t: &[u32]) -> Vec<u8> {
    t.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const NAME: &str = "input";

fn expect_listing(bytes: &[u8]) -> Result<Vec<u8>, ()> {
    let found = input::read_any(bytes).map_err(|_| ())?;
    let mut w = Vec::new();
    let located = report::locate(&found, false, &mut w).map_err(|_| ())?;
    Ok(report::listing(&located, &PrintOptions::default()).into_bytes())
}

fn expect_translation(bytes: &[u8], target: u32) -> Result<Vec<u8>, ()> {
    let l = report::load_first(bytes, NAME, false, Some("one")).map_err(|_| ())?;
    let opts = Default::default();
    match target {
        0 => d3dbc_spirv::translate(&l.shader, &opts)
            .map(|t| words_bytes(&t.words))
            .map_err(|_| ()),
        7 => d3dbc_spirv::translate(&l.shader, &opts)
            .map(|t| {
                serde_json::to_string_pretty(&t.interface)
                    .unwrap()
                    .into_bytes()
            })
            .map_err(|_| ()),
        _ => {
            let lang = [
                d3dbc_naga::Target::Spirv,
                d3dbc_naga::Target::Wgsl,
                d3dbc_naga::Target::Glsl,
                d3dbc_naga::Target::Msl,
                d3dbc_naga::Target::Hlsl,
            ][target as usize];
            let t = d3dbc_naga::translate(&l.shader, &opts).map_err(|_| ())?;
            t.emit(lang).map_err(|_| ())
        }
    }
}

fn expect_validation(bytes: &[u8]) -> Vec<u8> {
    let r = report::check(bytes, NAME);
    let mut s = format!(
        "valid {} failed {} shaders {}\n",
        r.valid() as i32,
        r.failed as i32,
        r.shaders.len()
    );
    for m in &r.messages {
        let (l, c) = m.diagnostic.as_ref().map_or((0, 0), |d| (d.line, d.col));
        let sev = (m.severity == d3dbc::Severity::Warning) as i32;
        let _ = writeln!(s, "[] {sev} +0 {l}:{c} `` {}", m.text);
    }
    for sh in &r.shaders {
        for f in &sh.findings {
            let (l, c) = f.source.as_ref().map_or((0, 0), |d| (d.line, d.col));
            let sev = (f.severity == d3dbc::Severity::Warning) as i32;
            let _ = writeln!(
                s,
                "[{}] {sev} +{} {l}:{c} `{}` {}",
                f.code, f.offset, f.instruction, f.message
            );
        }
    }
    let _ = writeln!(s, "{}", r.lines(NAME, false).join("\n"));
    s.into_bytes()
}

fn expect_reflection(bytes: &[u8]) -> Result<Vec<u8>, ()> {
    let l = report::load_first(bytes, NAME, false, Some("one")).map_err(|_| ())?;
    let i = d3dbc_spirv::translate(&l.shader, &Default::default())
        .map_err(|_| ())?
        .interface;
    let mut s = String::new();
    let stage = (i.stage == d3dbc::target::interface::Stage::Fragment) as i32;
    let _ = writeln!(
        s,
        "stage {stage} version {} entry {} group {}",
        i.version, i.entry_point, i.group
    );
    let b = |c: &Option<d3dbc::target::interface::ConstantBuffer>| {
        c.as_ref().map_or("0:0".to_string(), |c| {
            format!("{}:{}", c.binding, c.registers)
        })
    };
    let _ = writeln!(
        s,
        "buffers {} {} {} {}",
        b(&i.float_constants),
        b(&i.int_constants),
        b(&i.bool_constants),
        b(&i.driver)
    );
    for x in &i.samplers {
        let _ = writeln!(
            s,
            "sampler {} kind {} texture {} sampler {}",
            x.stage, x.kind as i32, x.texture_binding, x.sampler_binding
        );
    }
    for x in &i.vertex_inputs {
        let _ = writeln!(
            s,
            "input {} {} v{} @{}",
            x.usage.map_or(-1, |u| u as i32),
            x.usage_index,
            x.register,
            x.location
        );
    }
    for x in &i.varyings {
        let _ = writeln!(
            s,
            "varying {} {} @{} flat {} centroid {}",
            x.usage as u32, x.usage_index, x.location, x.flat as u8, x.centroid as u8
        );
    }
    for c in &i.color_outputs {
        let _ = writeln!(s, "color {c}");
    }
    let _ = writeln!(
        s,
        "depth {} discards {}",
        i.depth_output as u8, i.discards as u8
    );
    if let Some(t) = l.shader.ctab().transpose().map_err(|_| ())? {
        for c in &t.constants {
            let _ = write!(
                s,
                "constant {} set {} reg {} count {} class {} type {} {}x{} [{}] default",
                c.name,
                c.register_set.to_u16(),
                c.register_index,
                c.register_count,
                c.ty.class.to_u16(),
                c.ty.ty.to_u16(),
                c.ty.rows,
                c.ty.columns,
                c.ty.elements
            );
            for w in c.default_value.iter().flatten() {
                let _ = write!(s, " {w:08x}");
            }
            s.push('\n');
        }
    }
    Ok(s.into_bytes())
}

fn fnv(b: &[u8]) -> u32 {
    b.iter()
        .fold(2166136261u32, |h, &x| (h ^ x as u32).wrapping_mul(16777619))
}

fn expect_effect(bytes: &[u8]) -> Result<Vec<u8>, ()> {
    let e = Effect::parse(bytes).map_err(|_| ())?;
    let mut s = String::new();
    for p in &e.parameters {
        let numeric = !matches!(p.ty.class, d3dbc::fx::ParameterClass::Object);
        let _ = writeln!(
            s,
            "parameter {}:{} class {} type {} {}x{} [{}] flags {} annotations {} floats {}",
            p.ty.name,
            p.ty.semantic,
            p.ty.class.to_u16(),
            p.ty.ty.to_u16(),
            p.ty.rows,
            p.ty.columns,
            p.ty.elements,
            p.flags,
            p.annotations.len(),
            if numeric { p.ty.bytes() / 4 } else { 0 }
        );
    }
    // The C program sets every small numeric parameter to its own value: D3DX order,
    // as `flatten` gives it.
    let mut values = Values::default();
    for p in &e.parameters {
        let n = p.ty.bytes() / 4;
        if !matches!(p.ty.class, d3dbc::fx::ParameterClass::Object) && n > 0 && n <= 64 {
            let mut v = Vec::new();
            flatten(&p.ty, &p.value, &mut v);
            values.set(&p.ty.name, v);
        }
    }
    for (ti, t) in e.techniques.iter().enumerate() {
        let _ = writeln!(s, "technique {}", t.name);
        for (pi, p) in t.passes.iter().enumerate() {
            let _ = writeln!(s, " pass {}", p.name);
            let ps = match e.apply_pass(ti, pi, &values) {
                Ok(ps) => ps,
                Err(err) => {
                    let _ = writeln!(s, "error -1\ntechnique {ti} pass {pi}: {err}");
                    continue;
                }
            };
            let code = |c: Option<&[u8]>| {
                let c = c.unwrap_or(&[]);
                format!("{} {:08x}", c.len(), fnv(c))
            };
            let _ = writeln!(
                s,
                "  vs {} ps {}",
                code(ps.vertex_shader),
                code(ps.pixel_shader)
            );
            for st in &ps.states {
                let _ = write!(
                    s,
                    "  state {} {} {} {} {}:",
                    st.name, st.operation, st.class as u32, st.state, st.index
                );
                for w in &st.words {
                    let _ = write!(s, " {w:08x}");
                }
                s.push('\n');
            }
            for (stage, c) in [("  vs", &ps.vs_constants), ("  ps", &ps.ps_constants)] {
                for (r, v) in &c.float {
                    let _ = writeln!(
                        s,
                        "{stage} c{r} {:08x} {:08x} {:08x} {:08x}",
                        v[0].to_bits(),
                        v[1].to_bits(),
                        v[2].to_bits(),
                        v[3].to_bits()
                    );
                }
                for (r, v) in &c.int {
                    let _ = writeln!(s, "{stage} i{r} {} {} {} {}", v[0], v[1], v[2], v[3]);
                }
                for (r, v) in &c.bool {
                    let _ = writeln!(s, "{stage} b{r} {}", *v as i32);
                }
            }
            if let Some(f) = &ps.failure {
                let _ = writeln!(s, "  failure {f}");
            }
        }
    }
    Ok(s.into_bytes())
}

fn expect_asm_bytecode(text: &[u8]) -> Result<Vec<u8>, ()> {
    let t = input::decode_text(text);
    let opts = d3dbc::asm::Options {
        file_name: NAME.into(),
        ..Default::default()
    };
    let mut shader = d3dbc::asm::assemble(&t, &opts).map_err(|_| ())?;
    let _ = d3dbc::asm::ctab_header::rebuild(&mut shader, &t, NAME, &Default::default());
    Ok(words_bytes(&shader.encode()))
}

#[test]
fn every_native_function_from_c_equals_the_rust_api() {
    let Some(_) = common::corpus_dir() else {
        return;
    };
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_api");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let exe = build_c("native", &tmp);

    let mut jobs: Vec<Job> = Vec::new();
    let mut add = |op: &str, src: u32, target: u32, input: &[u8], expected, what: String| {
        let n = jobs.len();
        let inp = tmp.join(format!("{n}.in"));
        let out = tmp.join(format!("{n}.out"));
        std::fs::write(&inp, input).unwrap();
        jobs.push(Job {
            line: format!("{op} {src} {target} {} {}\n", inp.display(), out.display()),
            out,
            expected,
            what,
        });
    };
    let mut shaders = 0;
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        for (k, r) in common::records(file).unwrap().iter().enumerate() {
            let Some(d) = r.get("dwords").filter(|d| d.is_array()) else {
                continue;
            };
            let bytes = words_bytes(&common::dwords(d));
            let what = format!("{file} #{k} {}", common::label(r));
            shaders += 1;
            add(
                "compile",
                0,
                5,
                &bytes,
                expect_listing(&bytes),
                what.clone(),
            );
            add(
                "compile",
                0,
                0,
                &bytes,
                expect_translation(&bytes, 0),
                what.clone(),
            );
            add(
                "compile",
                0,
                7,
                &bytes,
                expect_translation(&bytes, 7),
                what.clone(),
            );
            // The naga targets on a sample (naga is the slow part, and the
            // differential of every target is `d3dbc-naga`'s own corpus test).
            if k % 16 == 0 {
                for t in 1..=4 {
                    add(
                        "compile",
                        0,
                        t,
                        &bytes,
                        expect_translation(&bytes, t),
                        what.clone(),
                    );
                }
            }
            add(
                "validate",
                0,
                0,
                &bytes,
                Ok(expect_validation(&bytes)),
                what.clone(),
            );
            add("reflect", 0, 0, &bytes, expect_reflection(&bytes), what);
        }
    }
    let mut listings = 0;
    for (k, r) in common::records("wine_asm.jsonl")
        .unwrap()
        .iter()
        .enumerate()
    {
        let Some(text) = r.get("text").and_then(|t| t.as_str()) else {
            continue;
        };
        let what = format!("wine_asm.jsonl #{k}");
        listings += 1;
        add(
            "compile",
            1,
            6,
            text.as_bytes(),
            expect_asm_bytecode(text.as_bytes()),
            what.clone(),
        );
        add(
            "validate",
            1,
            0,
            text.as_bytes(),
            Ok(expect_validation(text.as_bytes())),
            what,
        );
    }
    let mut effects = 0;
    for file in ["wine_fx.jsonl", "fxc_effects.jsonl"] {
        for (k, r) in common::records(file).unwrap().iter().enumerate() {
            let bytes = words_bytes(&common::dwords(&r["dwords"]));
            let what = format!("{file} #{k}");
            effects += 1;
            add("effect", 2, 0, &bytes, expect_effect(&bytes), what.clone());
            let listing = Effect::parse(&bytes).map(|e| e.listing().into_bytes());
            add(
                "compile",
                2,
                5,
                &bytes,
                listing.map_err(|_| ()),
                what.clone(),
            );
            // An effect is no WGSL: refused as not implemented.
            add("compile", 2, 1, &bytes, Err(()), what);
        }
    }
    let manifest = tmp.join("manifest");
    std::fs::write(
        &manifest,
        jobs.iter().map(|j| j.line.as_str()).collect::<String>(),
    )
    .unwrap();
    let st = Command::new(&exe).arg(&manifest).status().unwrap();
    assert!(st.success(), "native.c failed");

    let mut bad = Vec::new();
    let mut failures = 0;
    for j in &jobs {
        let got = std::fs::read(&j.out).unwrap();
        let c_failed = got.starts_with(b"error -");
        match &j.expected {
            Ok(want) if *want == got => {}
            Err(()) if c_failed => failures += 1,
            Ok(_) if c_failed => bad.push(format!(
                "{} ({}): C failed: {}",
                j.what,
                j.line.split(' ').next().unwrap(),
                String::from_utf8_lossy(&got)
                    .lines()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" | ")
            )),
            _ => bad.push(format!(
                "{} ({}): differs ({} bytes from C)",
                j.what,
                j.line.split(' ').take(3).collect::<Vec<_>>().join(" "),
                got.len()
            )),
        }
    }
    eprintln!(
        "{} calls from C ({shaders} shaders, {listings} listings, {effects} effects; {failures} \
         refused as the Rust API refuses them)",
        jobs.len()
    );
    assert!(
        bad.is_empty(),
        "{} of {}:\n{}",
        bad.len(),
        jobs.len(),
        bad.join("\n")
    );
}
