//! `MOJOSHADER_linkSPIRVShaders`' vertex formats: for every corpus vertex shader the face
//! translates, each input it lists is given an integer format (`BYTE4`, `SHORT2`,
//! `SHORT4`) or a float one in turn, the pair is linked, and then: the input variables of
//! integer formats point to `uvec4`/`ivec4`, every load of them reads that type and is
//! converted to float by the instruction after it (`OpConvertUToF`/`OpConvertSToF`),
//! float formats keep `vec4` and a plain copy, and every linked module passes
//! `spirv-val` (required under `CI=true`). Linking again with float formats puts every
//! word back.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use d3dbc_mojoshader::types::MOJOSHADER_vertexAttribute;
use d3dbc_mojoshader::*;
use support::{module, spirv_answer as parse};

const BYTE4: i32 = 5;
const SHORT2: i32 = 6;
const SHORT4: i32 = 7;
const VECTOR4: i32 = 3;

const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_COPY_OBJECT: u32 = 83;
const OP_CONVERT_S_TO_F: u32 = 111;
const OP_CONVERT_U_TO_F: u32 = 112;

fn spirv_val(words: &[u32], name: &str) -> bool {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    match std::process::Command::new("spirv-val").arg(&path).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "spirv-val {name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            true
        }
        Err(_) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "spirv-val is required under CI=true"
            );
            false
        }
    }
}

/// The instruction starting at word `at`: (opcode, its words).
fn at(words: &[u32], at: usize) -> (u32, &[u32]) {
    let len = (words[at] >> 16) as usize;
    (words[at] & 0xFFFF, &words[at..at + len])
}

#[test]
fn integer_vertex_formats_retype_and_convert_the_inputs() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    // A pixel shader to link against (its inputs do not matter here).
    let ps = d3dbc::asm::assemble("ps_2_0\nmov oC0, c0\n", &Default::default()).unwrap();
    let ps_bytes: Vec<u8> = ps.encode().iter().flat_map(|w| w.to_le_bytes()).collect();
    let (mut shaders, mut retyped, mut loads, mut validated) = (0, 0, 0, 0);
    for (i, (file, name, tokens)) in streams.iter().enumerate() {
        if tokens.first().is_none_or(|&t| t >> 16 != 0xFFFE) {
            continue;
        }
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        let v = parse(&bytes);
        let p = parse(&ps_bytes);
        // SAFETY: answers of MOJOSHADER_parse, read and then freed once each.
        unsafe {
            if (*v).error_count == 0 {
                let listed: Vec<(i32, i32)> = (0..(*v).attribute_count as usize)
                    .map(|k| {
                        let a = &*(*v).attributes.add(k);
                        (a.usage, a.index)
                    })
                    .collect();
                let formats = [BYTE4, SHORT2, SHORT4, VECTOR4];
                let attributes: Vec<MOJOSHADER_vertexAttribute> = listed
                    .iter()
                    .enumerate()
                    .map(|(k, &(usage, index))| MOJOSHADER_vertexAttribute {
                        usage,
                        vertexElementFormat: formats[k % 4],
                        usageIndex: index,
                    })
                    .collect();
                let (before, _) = module(v);
                assert_eq!(
                    MOJOSHADER_linkSPIRVShaders(v, p, attributes.as_ptr(), attributes.len() as i32),
                    1,
                    "{file} {name}"
                );
                let (words, t) = module(v);
                shaders += 1;
                for a in &attributes {
                    let (u, x) = (a.usage as usize, a.usageIndex as usize);
                    let var_at = t.attrib_type_offsets[u][x] as usize;
                    if var_at == 0 {
                        continue;
                    }
                    let (want_ptr, want_ty, want_op) = match a.vertexElementFormat {
                        BYTE4 => (t.tid_uvec4_p, t.tid_uvec4, OP_CONVERT_U_TO_F),
                        SHORT2 | SHORT4 => (t.tid_ivec4_p, t.tid_ivec4, OP_CONVERT_S_TO_F),
                        _ => (t.tid_vec4_p, t.tid_vec4, OP_COPY_OBJECT),
                    };
                    let (op, var) = at(&words, var_at - 1);
                    assert_eq!((op, var[1]), (OP_VARIABLE, want_ptr), "{file} {name}");
                    let l = &t.attrib_type_load_offsets[u][x];
                    assert!(l.num_loads > 0, "{file} {name}: an input never loaded");
                    for k in 0..l.num_loads as usize {
                        let ty_at = *l.load_types.add(k) as usize;
                        let op_at = *l.load_opcodes.add(k) as usize;
                        let (op, load) = at(&words, ty_at - 1);
                        assert_eq!((op, load[1], load[3]), (OP_LOAD, want_ty, var[2]));
                        let (op, conv) = at(&words, op_at);
                        assert_eq!((op, conv[1], conv[3]), (want_op, t.tid_vec4, load[2]));
                        loads += 1;
                    }
                    if a.vertexElementFormat != VECTOR4 {
                        retyped += 1;
                    }
                }
                if spirv_val(&words, &format!("formats{i}")) {
                    validated += 1;
                }
                // Float formats everywhere put every word back.
                let floats: Vec<MOJOSHADER_vertexAttribute> = attributes
                    .iter()
                    .map(|a| MOJOSHADER_vertexAttribute {
                        vertexElementFormat: VECTOR4,
                        ..*a
                    })
                    .collect();
                MOJOSHADER_linkSPIRVShaders(v, p, floats.as_ptr(), floats.len() as i32);
                let (again, _) = module(v);
                assert_eq!(
                    again.len(),
                    before.len(),
                    "{file} {name}: linking changed the module's size"
                );
                let differs = again
                    .iter()
                    .zip(&before)
                    .enumerate()
                    .filter(|(k, (a, b))| a != b && !is_location(&before, *k))
                    .count();
                assert_eq!(
                    differs, 0,
                    "{file} {name}: words other than locations changed"
                );
            }
            MOJOSHADER_freeParseData(v);
            MOJOSHADER_freeParseData(p);
        }
    }
    eprintln!(
        "{shaders} vertex shaders linked with integer formats: {retyped} inputs retyped, \
         {loads} loads converted, {validated} modules passed spirv-val"
    );
    assert!(shaders > 100 && retyped > 100, "too few shaders exercised");
}

/// Whether word `k` is the literal of a `Location` decoration (which linking assigns).
fn is_location(words: &[u32], k: usize) -> bool {
    let mut at = 5;
    while at < words.len() {
        let len = (words[at] >> 16) as usize;
        if len == 0 {
            return false;
        }
        if words[at] & 0xFFFF == 71 && len >= 4 && words[at + 2] == 30 && k == at + 3 {
            return true;
        }
        at += len;
    }
    false
}
