//! The C API (`d3dbc_compile`, crate `d3dbc-capi`) writes the bytes the command writes
//! for the same input and options: `translate` to every target (with `--options` and
//! `--via naga` as option pairs), `translate --interface`, `dis`, `asm`, and `dis` of an
//! effect, over corpus shaders, listings and effects.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};
use std::process::Command;

use d3dbc_capi::{
    d3dbc_code, d3dbc_compile, d3dbc_compile_info, d3dbc_free_code, d3dbc_free_messages,
    d3dbc_option, d3dbc_source_type, d3dbc_target_type,
};

/// `d3dbc_compile` from Rust: the output, or the messages.
fn compile(
    source: d3dbc_source_type,
    bytes: &[u8],
    target: d3dbc_target_type,
    options: &[(&str, &str)],
) -> Result<Vec<u8>, String> {
    let owned: Vec<(CString, CString)> = options
        .iter()
        .map(|(n, v)| (CString::new(*n).unwrap(), CString::new(*v).unwrap()))
        .collect();
    let opts: Vec<d3dbc_option> = owned
        .iter()
        .map(|(n, v)| d3dbc_option {
            name: n.as_ptr(),
            value: v.as_ptr(),
        })
        .collect();
    let info = d3dbc_compile_info {
        struct_size: std::mem::size_of::<d3dbc_compile_info>() as u32,
        source_type: source,
        source: d3dbc_code {
            data: bytes.as_ptr().cast(),
            size: bytes.len(),
        },
        target_type: target,
        options: opts.as_ptr(),
        option_count: opts.len(),
    };
    let mut out = d3dbc_code {
        data: std::ptr::null(),
        size: 0,
    };
    let mut messages: *mut c_char = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; the output is copied, then freed.
    unsafe {
        let rc = d3dbc_compile(&info, &mut out, &mut messages);
        let text = if messages.is_null() {
            String::new()
        } else {
            CStr::from_ptr(messages).to_string_lossy().into_owned()
        };
        d3dbc_free_messages(messages);
        if rc != 0 {
            return Err(format!("rc {rc}: {text}"));
        }
        let v = std::slice::from_raw_parts(out.data.cast::<u8>(), out.size).to_vec();
        d3dbc_free_code(&mut out);
        Ok(v)
    }
}

/// Runs the command; its output file, or its standard error.
fn cli(args: &[&str], out: &Path) -> Result<Vec<u8>, String> {
    let _ = std::fs::remove_file(out);
    let o = Command::new(env!("CARGO_BIN_EXE_d3dbc"))
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    std::fs::read(out).map_err(|e| e.to_string())
}

fn tmp() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("capi_same_bytes");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn words_bytes(t: &[u32]) -> Vec<u8> {
    t.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn compile_writes_the_bytes_the_command_writes() {
    use d3dbc_source_type::*;
    use d3dbc_target_type::*;
    let Some(binaries) = common::records("binaries.jsonl") else {
        return;
    };
    let dir = tmp();
    let options_json = dir.join("options.json");
    std::fs::write(
        &options_json,
        r#"{"semantics": {"mul_zero": "ieee", "fused_mad": true},
            "pipeline": {"alpha_test": "less", "fog": "linear", "flat_shading": true}}"#,
    )
    .unwrap();
    let pairs = [
        ("semantics.mul_zero", "ieee"),
        ("semantics.fused_mad", "true"),
        ("pipeline.alpha_test", "less"),
        ("pipeline.fog", "linear"),
        ("pipeline.flat_shading", "true"),
    ];
    let opts = options_json.to_str().unwrap();
    let mut checked = 0;
    let mut bad = Vec::new();
    let mut check =
        |what: String, ours: Result<Vec<u8>, String>, theirs: Result<Vec<u8>, String>| {
            checked += 1;
            match (ours, theirs) {
                (Ok(a), Ok(b)) if a == b => {}
                (Err(_), Err(_)) => {}
                (a, b) => bad.push(format!(
                    "{what}: capi {:?} bytes, command {:?}",
                    a.map(|v| v.len()),
                    b.map(|v| v.len())
                )),
            }
        };
    for (k, r) in binaries.iter().enumerate() {
        let bytes = words_bytes(&common::dwords(&r["dwords"]));
        let input = dir.join(format!("{k}.bin"));
        std::fs::write(&input, &bytes).unwrap();
        let i = input.to_str().unwrap();
        let out = dir.join(format!("{k}.out"));
        check(
            format!("#{k} dis"),
            compile(D3DBC_SOURCE_BYTECODE, &bytes, D3DBC_TARGET_ASSEMBLY, &[]),
            cli(&["dis", i], &out),
        );
        check(
            format!("#{k} dis --offsets --tokens"),
            compile(
                D3DBC_SOURCE_BYTECODE,
                &bytes,
                D3DBC_TARGET_ASSEMBLY,
                &[("print.offsets", "true"), ("print.tokens", "true")],
            ),
            cli(&["dis", "--offsets", "--tokens", i], &out),
        );
        check(
            format!("#{k} spirv"),
            compile(D3DBC_SOURCE_BYTECODE, &bytes, D3DBC_TARGET_SPIRV, &pairs),
            cli(&["translate", "-t", "spirv", "--options", opts, i], &out),
        );
        let iface = dir.join(format!("{k}.interface.json"));
        let _ = cli(&["translate", "-t", "spirv", "--interface", i], &out);
        check(
            format!("#{k} interface"),
            compile(D3DBC_SOURCE_BYTECODE, &bytes, D3DBC_TARGET_JSON, &[]),
            std::fs::read(&iface).map_err(|e| e.to_string()),
        );
        // The naga targets on a sample: each run is a whole naga translation.
        if k % 8 == 0 {
            for (t, name) in [
                (D3DBC_TARGET_WGSL, "wgsl"),
                (D3DBC_TARGET_GLSL, "glsl"),
                (D3DBC_TARGET_MSL, "msl"),
                (D3DBC_TARGET_HLSL, "hlsl"),
            ] {
                check(
                    format!("#{k} {name}"),
                    compile(D3DBC_SOURCE_BYTECODE, &bytes, t, &pairs),
                    cli(&["translate", "-t", name, "--options", opts, i], &out),
                );
            }
            let mut via = pairs.to_vec();
            via.push(("via", "naga"));
            check(
                format!("#{k} spirv via naga"),
                compile(D3DBC_SOURCE_BYTECODE, &bytes, D3DBC_TARGET_SPIRV, &via),
                cli(
                    &[
                        "translate",
                        "-t",
                        "spirv",
                        "--via",
                        "naga",
                        "--options",
                        opts,
                        i,
                    ],
                    &out,
                ),
            );
        }
        // The listing back through the assembler: `asm` of `dis`'s text.
        if let Ok(text) = compile(D3DBC_SOURCE_BYTECODE, &bytes, D3DBC_TARGET_ASSEMBLY, &[]) {
            let asm = dir.join(format!("{k}.asm"));
            std::fs::write(&asm, &text).unwrap();
            check(
                format!("#{k} asm"),
                compile(
                    D3DBC_SOURCE_ASSEMBLY,
                    &text,
                    D3DBC_TARGET_BYTECODE,
                    &[("name", asm.to_str().unwrap())],
                ),
                cli(&["asm", asm.to_str().unwrap()], &out),
            );
        }
    }
    if let Some(effects) = common::records("fxc_effects.jsonl") {
        for (k, r) in effects.iter().enumerate() {
            let bytes = words_bytes(&common::dwords(&r["dwords"]));
            let input = dir.join(format!("fx{k}.fxo"));
            std::fs::write(&input, &bytes).unwrap();
            check(
                format!("effect #{k} dis"),
                compile(D3DBC_SOURCE_EFFECT, &bytes, D3DBC_TARGET_ASSEMBLY, &[]),
                cli(&["dis", input.to_str().unwrap()], &dir.join("fx.out")),
            );
        }
    }
    eprintln!("{checked} outputs compared");
    assert!(
        bad.is_empty(),
        "{} of {checked}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn refusals_match_too() {
    use d3dbc_source_type::*;
    use d3dbc_target_type::*;
    let dir = tmp();
    // ps_2_0 reading r5 before writing it: the validator refuses, the command too;
    // `validate=false` is `--no-validate`.
    let text = b"ps_2_0\nmov oC0, r5\n";
    let path = dir.join("bad.asm");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let ours = compile(D3DBC_SOURCE_ASSEMBLY, text, D3DBC_TARGET_SPIRV, &[]);
    assert!(
        ours.as_ref().is_err_and(|e| e.contains("E0204")),
        "{ours:?}"
    );
    assert!(cli(&["translate", "-t", "spirv", p], &dir.join("bad.spv")).is_err());
    let ours = compile(
        D3DBC_SOURCE_ASSEMBLY,
        text,
        D3DBC_TARGET_SPIRV,
        &[("validate", "false")],
    );
    let theirs = cli(
        &["translate", "-t", "spirv", "--no-validate", p],
        &dir.join("bad.spv"),
    );
    assert_eq!(ours.unwrap(), theirs.unwrap());
}
