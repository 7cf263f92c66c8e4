//! The MojoShader face against MojoShader: `tests/c/parse_dump.c`, a program written
//! for MojoShader's API, is built twice — against MojoShader 6333f74 (its sources from
//! `cargo xtask peers --fetch-only`, compiled here with `cc`) and against
//! `libd3dbc_mojoshader` with d3dbc's header (`crates/d3dbc-capi/face/mojoshader.h`) —
//! and run over every corpus shader with the profiles `bytecode`, `d3d`, `glsl` and
//! `spirv`. The two outputs are compared field by field (uniforms, constants, samplers,
//! attributes, outputs, swizzles, symbols, instruction count, output), and the figures
//! printed: how many shaders MojoShader accepts, how many the face accepts (every one
//! MojoShader accepts, and those it refuses), and per field how many answers are equal.
//!
//! What must hold: the face accepts every shader MojoShader accepts; every field (and
//! the `bytecode` output) is equal wherever both accept; the face frees everything it
//! allocates through the caller's allocator; every `spirv` module (alone, and after
//! `MOJOSHADER_linkSPIRVShaders` of a vertex and a pixel shader) passes `spirv-val`;
//! the unknown profile gives MojoShader's error. The `d3d`, `glsl` and `spirv` outputs are
//! d3dbc's own (README, "Replace MojoShader"): counted, not compared — except what
//! MojoShader's Vulkan / SDL_GPU glue relies on in a `spirv` module, which must be equal:
//! the descriptor set and binding of every sampler and uniform buffer, the offset and
//! element count of each register array in the uniform buffer, the byte offset of every
//! register the shader reads at a constant index (where it lands in the buffer the glue
//! fills), the vertex input
//! locations, the patch table's fields the glue reads (uniform and sampler entries,
//! location count, which varyings and colour outputs have a literal to patch), and after
//! `MOJOSHADER_linkSPIRVShaders` the location every varying got. A shader whose register
//! blocks the face cannot place in MojoShader's packed buffer (relative addressing) is
//! listed with that reason ([`KEPT`]).

mod cbuild;
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use cbuild::{build_face, build_mojoshader, lib_dir};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `exe PROFILE DIR < list`; the answer of each shader: field → lines.
fn run(
    exe: &Path,
    profile: &str,
    dir: &Path,
    list: &str,
) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    std::fs::create_dir_all(dir).unwrap();
    let list_path = dir.join("list");
    std::fs::write(&list_path, list).unwrap();
    // The library beside this test, not a stale copy that cargo's LD_LIBRARY_PATH (the
    // profile folder) would find before the program's run path.
    let out = Command::new(exe)
        .env("LD_LIBRARY_PATH", lib_dir())
        .arg(profile)
        .arg(dir)
        .stdin(std::fs::File::open(&list_path).unwrap())
        .output()
        .expect("run parse_dump");
    assert!(
        out.status.success(),
        "{} {profile} failed: {}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut all = BTreeMap::new();
    let mut current: Option<(String, BTreeMap<String, Vec<String>>)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("== ") {
            if let Some((n, m)) = current.take() {
                all.insert(n, m);
            }
            current = Some((name.to_string(), BTreeMap::new()));
            continue;
        }
        let Some((_, m)) = current.as_mut() else {
            continue;
        };
        let (field, rest) = line.split_once(' ').unwrap_or((line, ""));
        m.entry(field.to_string())
            .or_default()
            .push(rest.to_string());
    }
    if let Some((n, m)) = current {
        all.insert(n, m);
    }
    all
}

fn spirv_val(path: &Path) -> Result<(), String> {
    let out = Command::new("spirv-val")
        .arg(path)
        .output()
        .map_err(|e| format!("spirv-val: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Why a `spirv` answer of the face may keep d3dbc's register-indexed uniform blocks
/// (off binding 0): MojoShader packs the registers a shader uses into consecutive
/// slots; a register read through relative addressing (`c[a0.x + n]`) is indexed at run
/// time, so the face shifts that index by the slot minus the first register of the array
/// its base register `n` is in, which needs `n` read back from the index's instructions
/// (or every array of the same shift).
const KEPT: &str = "relative addressing whose base register cannot be read, across arrays \
                    of different shifts: the register index is computed at run time, so \
                    the face cannot move the registers to MojoShader's packed slots";

/// Why a `spirv` answer of the face may have a uniform buffer at binding 1 that
/// MojoShader's has not: d3dbc reads the state outside the shader (here ps_1_x's
/// bump-environment matrix and luminance of `texbem`/`texbeml`) from its driver uniforms;
/// MojoShader puts them in two float slots after the uniforms of binding 0, which its own
/// glue never fills (`mojoshader_sdlgpu.c` sizes and fills the buffer from the uniform
/// list only), so neither is set by MojoShader's glue.
const DRIVER: &str = "texbem: d3dbc reads the bump-environment matrix from its driver \
                      uniforms (binding 1), MojoShader from two float slots after the \
                      uniforms that its glue never fills";

/// What MojoShader's glue binds and patches in a `spirv` module.
#[derive(Debug, PartialEq, Default)]
struct Resources {
    /// (set, binding, member offset, element count) of each uniform-buffer array.
    uniforms: std::collections::BTreeSet<(u32, u32, u32, u32)>,
    /// (set, binding) of each image or sampler.
    samplers: std::collections::BTreeSet<(u32, u32)>,
    /// Locations of the vertex inputs (vertex shaders).
    inputs: std::collections::BTreeSet<u32>,
    /// (set, binding, byte offset) of every uniform-buffer element read at a constant
    /// index: where each register the shader reads lands in the buffer the glue fills.
    reads: std::collections::BTreeSet<(u32, u32, u32)>,
}

fn resources(path: &Path, vertex: bool) -> Resources {
    let bytes = std::fs::read(path).unwrap_or_default();
    let w: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut dec: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut member_offset: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut vars = Vec::new();
    let mut pointee = BTreeMap::new();
    let mut structs: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut arrays = BTreeMap::new();
    let mut constants = BTreeMap::new();
    let mut chains = Vec::new();
    // Words of the function bodies: a variable no body names is not bound.
    let mut body = std::collections::BTreeSet::new();
    let mut in_body = false;
    let mut at = 5;
    while at < w.len() {
        let (len, op) = ((w[at] >> 16) as usize, w[at] & 0xFFFF);
        if len == 0 || at + len > w.len() {
            break;
        }
        let i = &w[at..at + len];
        in_body |= op == 54;
        if in_body {
            body.extend(i[1..].iter().copied());
        }
        match op {
            71 if len >= 4 => {
                dec.insert((i[1], i[2]), i[3]);
            }
            72 if len >= 5 && i[3] == 35 => {
                member_offset.insert((i[1], i[2]), i[4]);
            }
            59 => vars.push((i[2], i[1], i[3])),
            65 | 66 if len >= 6 => chains.push(i[3..].to_vec()),
            32 => {
                pointee.insert(i[1], i[3]);
            }
            30 => {
                structs.insert(i[1], i[2..].to_vec());
            }
            28 => {
                arrays.insert(i[1], i[3]);
            }
            43 if len == 4 => {
                constants.insert(i[2], i[3]);
            }
            _ => {}
        }
        at += len;
    }
    let mut r = Resources::default();
    for (id, ty, class) in &vars {
        let (id, ty) = (*id, *ty);
        let (Some(&set), Some(&binding)) = (dec.get(&(id, 34)), dec.get(&(id, 33))) else {
            continue;
        };
        if *class != 2 {
            continue;
        }
        let st = pointee.get(&ty).copied().unwrap_or(0);
        for c in chains.iter().filter(|c| c[0] == id && c.len() == 3) {
            if let (Some(&member), Some(&elem)) = (constants.get(&c[1]), constants.get(&c[2])) {
                let off = member_offset.get(&(st, member)).copied().unwrap_or(0);
                r.reads.insert((set, binding, off + 16 * elem));
            }
        }
    }
    for (id, ty, class) in vars {
        if class != 1 && !body.contains(&id) {
            continue;
        }
        let (set, binding) = (dec.get(&(id, 34)), dec.get(&(id, 33)));
        match (class, set, binding) {
            (2, Some(&set), Some(&binding)) => {
                let st = pointee.get(&ty).copied().unwrap_or(0);
                for (m, &mt) in structs.get(&st).into_iter().flatten().enumerate() {
                    let n = arrays.get(&mt).and_then(|c| constants.get(c)).copied();
                    let off = member_offset.get(&(st, m as u32)).copied().unwrap_or(0);
                    r.uniforms.insert((set, binding, off, n.unwrap_or(1)));
                }
            }
            (0, Some(&set), Some(&binding)) => {
                r.samplers.insert((set, binding));
            }
            (1, _, _) if vertex => {
                if let Some(&l) = dec.get(&(id, 30)) {
                    r.inputs.insert(l);
                }
            }
            _ => {}
        }
    }
    r
}

const FIELDS: [&str; 17] = [
    "spirv_patch",
    "spirv_location_count",
    "spirv_attrib",
    "spirv_output",
    "blob",
    "shader",
    "instruction_count",
    "uniform",
    "constant",
    "sampler",
    "attribute",
    "output",
    "swizzle",
    "symbol",
    "preshader",
    "mainfn",
    "profile",
];

/// Links pairs of vertex and pixel shaders of the face's `spirv` answers with
/// `MOJOSHADER_linkSPIRVShaders` and validates both linked modules.
fn link_pairs(
    mojo: &Path,
    face: &Path,
    out: &Path,
    answers: &BTreeMap<String, BTreeMap<String, Vec<String>>>,
    mojo_answers: &BTreeMap<String, BTreeMap<String, Vec<String>>>,
    labels: &[String],
) -> Vec<String> {
    let (mut vs, mut ps) = (Vec::new(), Vec::new());
    for (key, a) in answers {
        let Some(shader) = a.get("shader").and_then(|s| s.first()) else {
            continue;
        };
        let idx: usize = key.split(' ').next().unwrap().parse().unwrap();
        let path = key.split_once(' ').unwrap().1.to_string();
        if shader.starts_with("2 ") {
            vs.push((idx, path));
        } else {
            ps.push((idx, path));
        }
    }
    let list: String = vs
        .iter()
        .zip(ps.iter().rev())
        .map(|((_, v), (_, p))| format!("link {v} {p}\n"))
        .collect();
    let dir = out.join("face-link");
    let linked = run(face, "spirv", &dir, &list);
    // MojoShader links the pairs whose shaders it accepts (it aborts on the others).
    let accepted = |path: &str| {
        mojo_answers
            .iter()
            .any(|(k, a)| k.split_once(' ').is_some_and(|(_, p)| p == path) && a["errors"] == ["0"])
    };
    let mojo_list: String = vs
        .iter()
        .zip(ps.iter().rev())
        .filter(|((_, v), (_, p))| accepted(v) && accepted(p))
        .map(|((_, v), (_, p))| format!("link {v} {p}\n"))
        .collect();
    let mojo_linked: BTreeMap<String, _> = run(mojo, "spirv", &out.join("mojo-link"), &mojo_list)
        .into_iter()
        .filter_map(|(k, a)| {
            let rest = k.strip_prefix("link ")?;
            Some((rest.split_once(' ')?.1.to_string(), a))
        })
        .collect();
    let mut failures = Vec::new();
    let (mut n, mut same, mut deadbeef, mut pointcoord) = (0, 0, 0, 0);
    for (key, a) in &linked {
        let Some(rest) = key.strip_prefix("link ") else {
            continue;
        };
        let id: usize = rest.split(' ').next().unwrap().parse().unwrap();
        if a.get("linked").is_none() {
            failures.push(format!("link {rest}: {:?}", a));
            continue;
        }
        let (v, p) = (&vs[id], &ps[ps.len() - 1 - id]);
        let face_locations = a.get("linked_location").cloned().unwrap_or_default();
        // Within a stage, no two linked varyings share a location.
        for stage in ["vs ", "ps "] {
            let mut seen: Vec<&str> = face_locations
                .iter()
                .filter_map(|l| l.strip_prefix(stage))
                .filter_map(|l| l.rsplit(' ').next())
                .collect();
            let n = seen.len();
            seen.sort();
            seen.dedup();
            if seen.len() != n {
                failures.push(format!(
                    "linked {} + {}: two varyings share a location: {face_locations:?}",
                    labels[v.0], labels[p.0]
                ));
            }
        }
        match mojo_linked.get(rest.split_once(' ').map_or("", |r| r.1)) {
            Some(m) if m.get("linked").is_some() => {
                let mojo_locations = m.get("linked_location").cloned().unwrap_or_default();
                // MojoShader's linker leaves 0xDEADBEEF in the pixel inputs its parse
                // answer does not list (ps_1_x `t#`, a DEPTH input) and in the vertex
                // outputs feeding them: an invalid module, where the face links them (and
                // so the locations after them move on by one each).
                let unlinked = |l: &String| l.ends_with(" 3735928559");
                let keys = |list: &[String]| -> Vec<String> {
                    list.iter()
                        .map(|l| l.rsplit_once(' ').map_or(l.clone(), |(k, _)| k.to_string()))
                        .collect()
                };
                if mojo_locations == face_locations {
                    same += 1;
                } else if keys(&mojo_locations) == keys(&face_locations)
                    && mojo_locations.iter().any(unlinked)
                {
                    deadbeef += 1;
                } else if keys(&mojo_locations) == keys(&face_locations)
                    && mojo_locations
                        .iter()
                        .zip(&face_locations)
                        .all(|(x, y)| x == y || x == "ps 5 0 16")
                {
                    // MojoShader's linker rewrites the pixel shader's TEXCOORD0 input into
                    // the PointCoord built-in (16) whenever the vertex shader writes a
                    // point size, as if D3DRS_POINTSPRITEENABLE were always on; D3D9
                    // generates sprite coordinates only when it is (d3dbc: the
                    // `point_sprites` pipeline option), so the face keeps the varying.
                    pointcoord += 1;
                } else {
                    failures.push(format!(
                        "linked {} + {}: varying locations differ: MojoShader {:?}, face {:?}",
                        labels[v.0],
                        labels[p.0],
                        m.get("linked_location"),
                        a.get("linked_location")
                    ));
                }
            }
            _ => {}
        }
        for stage in ["vs", "ps"] {
            if let Err(e) = spirv_val(&dir.join(format!("{id}.{stage}.spv"))) {
                failures.push(format!(
                    "linked {stage} of {} + {}: spirv-val: {e}",
                    labels[v.0], labels[p.0]
                ));
            }
        }
        n += 1;
    }
    assert!(n > 0, "no shader pair linked");
    println!(
        "spirv: {n} vertex/pixel pairs linked with MOJOSHADER_linkSPIRVShaders, both modules \
         validated; of the {} MojoShader links too, varying locations equal in {same}; \
         listed {deadbeef}: MojoShader leaves 0xDEADBEEF in pixel inputs its answer does not \
         list (ps_1_x t#, a DEPTH input) and the vertex outputs feeding them (an invalid \
         module), the face links them (the locations after them move on by one); listed \
         {pointcoord}: MojoShader turns the pixel TEXCOORD0 into PointCoord when the vertex \
         shader writes PSIZE (sprites assumed on), the face keeps the varying",
        mojo_linked.len()
    );
    failures
}

/// The shaders inside FNA's effects (every `*.fxb` in `$D3DBC_FNA_EFFECTS`, README), when
/// set: each shader object of an effect is its byte size, then the tokens from the
/// version token to the end token.
/// Shaders written here for the relative-addressing layouts the corpus lacks, as fxc
/// lists them (constant table first): two relatively addressed constant-table arrays of
/// different shifts, relative addressing into `def` constants beside a constant table
/// (both of which MojoShader places), and relative addressing with no constant table
/// (which MojoShader refuses, so only the face answers).
fn layout_probes() -> Vec<(String, String, Vec<u32>)> {
    let table = |params: &str, regs: &str| {
        format!(
            "//\n// Generated by test\n//\n// Parameters:\n//\n{params}//\n//\n// Registers:\n\
             //\n//   Name         Reg   Size\n//   ------------ ----- ----\n{regs}//\n\n"
        )
    };
    let probes = [
        (
            "two arrays of different shifts",
            table(
                "//   float4 A[4];\n//   float4 B[4];\n//   float4 C;\n",
                "//   A            c0       4\n//   B            c10      4\n//   C            c20      1\n",
            ) + "    vs_2_0\n    dcl_position v0\n    mova a0.x, v0.x\n    add r0, c0[a0.x], c10[a0.x]\n    add oPos, r0, c20\n",
        ),
        (
            "defs relatively addressed beside a constant table",
            table("//   float4 C;\n", "//   C            c20      1\n")
                + "    vs_2_0\n    def c0, 1, 0, 0, 1\n    def c1, 0, 1, 0, 1\n    def c2, 0, 0, 1, 1\n    dcl_position v0\n    mova a0.x, c20.x\n    mov oD0, c1[a0.x]\n    mov oPos, v0\n",
        ),
        (
            "relative addressing with no constant table",
            "    vs_2_0\n    def c0, 1, 0, 0, 1\n    def c1, 0, 1, 0, 1\n    dcl_position v0\n    mova a0.x, c7.x\n    mov oD0, c1[a0.x]\n    mov oPos, v0\n".to_string(),
        ),
    ];
    probes
        .into_iter()
        .map(|(name, text)| {
            let words = d3dbc::fx::asm::assemble_shader_listing(
                &text,
                "probe.asm",
                None,
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            ("layout probe".to_string(), name.to_string(), words)
        })
        .collect()
}

fn fna_shaders() -> Vec<(String, String, Vec<u32>)> {
    let Some(dir) = std::env::var_os("D3DBC_FNA_EFFECTS") else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("fxb")));
    files.sort();
    let mut shaders = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).unwrap_or_default();
        let w: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut k = 0;
        for i in 1..w.len() {
            let version = w[i] & 0xFFFF;
            let kind = w[i] >> 16;
            let size = w[i - 1] as usize;
            if !(kind == 0xFFFE || kind == 0xFFFF)
                || !matches!(version, 0x0101..=0x0104 | 0x0200 | 0x0201 | 0x0300)
                || !size.is_multiple_of(4)
                || size < 8
                || i + size / 4 > w.len()
                || w[i + size / 4 - 1] != 0x0000_FFFF
            {
                continue;
            }
            shaders.push((
                "FNA".to_string(),
                format!("{name} shader {k}"),
                w[i..i + size / 4].to_vec(),
            ));
            k += 1;
        }
    }
    println!("FNA effects: {} shaders", shaders.len());
    shaders
}

#[test]
fn face_against_mojoshader_on_the_corpus() {
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut streams = streams;
    if let Some(recs) = common::records("fxc10_listings.jsonl") {
        for r in recs {
            if r.get("dwords").is_some() {
                streams.push((
                    "fxc10_listings.jsonl".into(),
                    common::label(&r),
                    common::dwords(&r["dwords"]),
                ));
            }
        }
    }
    streams.extend(fna_shaders());
    streams.extend(layout_probes());
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mojoshader_differential");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mojo = build_mojoshader("parse_dump", &src, &out, "-O1");
    let face = build_face("parse_dump", &out, "-O1");

    let mut list = String::new();
    let mut labels = Vec::new();
    for (i, (file, label, tokens)) in streams.iter().enumerate() {
        let p = out.join(format!("shader{i}.bin"));
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&p, bytes).unwrap();
        list.push_str(&format!("{}\n", p.display()));
        labels.push(format!("{file} {label}"));
    }

    let mut report = String::new();
    let mut hard: Vec<String> = Vec::new();
    for profile in ["bytecode", "d3d", "glsl", "spirv"] {
        let m = run(&mojo, profile, &out.join(format!("mojo-{profile}")), &list);
        let f = run(&face, profile, &out.join(format!("face-{profile}")), &list);
        let (mut mojo_ok, mut face_ok, mut face_only, mut both) = (0, 0, 0, 0);
        let mut equal: BTreeMap<&str, usize> = BTreeMap::new();
        let mut examples: BTreeMap<&str, String> = BTreeMap::new();
        let mut refused = Vec::new();
        let (mut layout_equal, mut layout_listed, mut reads_equal) = (0, Vec::new(), 0);
        for (key, fm) in &f {
            if key == "unknown-profile" || key.starts_with("link ") {
                let mm = &m[key];
                assert_eq!(fm.get("error"), mm.get("error"), "unknown profile error");
                continue;
            }
            let idx: usize = key.split(' ').next().unwrap().parse().unwrap();
            let label = &labels[idx];
            let mm = &m[key];
            if let Some(leak) = fm.get("leak") {
                hard.push(format!(
                    "{profile} {label}: the face leaked {leak:?} allocations"
                ));
            }
            let m_accepts = mm["errors"] == ["0"];
            let f_accepts = fm["errors"] == ["0"];
            mojo_ok += m_accepts as usize;
            face_ok += f_accepts as usize;
            if m_accepts && !f_accepts {
                hard.push(format!(
                    "{profile} {label}: MojoShader accepts, the face refuses: {:?}",
                    fm.get("error")
                ));
            }
            if !m_accepts && f_accepts {
                face_only += 1;
            }
            if f_accepts && profile == "spirv" {
                let spv = out.join(format!("face-spirv/{idx}.spv"));
                if let Err(e) = spirv_val(&spv) {
                    hard.push(format!("spirv {label}: spirv-val: {e}"));
                }
            }
            if !f_accepts {
                refused.push(format!("{profile} {label}: {:?}", fm.get("error")));
            }
            if !(m_accepts && f_accepts) {
                continue;
            }
            both += 1;
            if profile == "spirv" {
                let vertex = fm
                    .get("shader")
                    .and_then(|s| s.first())
                    .is_some_and(|s| s.starts_with("2 "));
                let rm = resources(&out.join(format!("mojo-spirv/{idx}.spv")), vertex);
                let rf = resources(&out.join(format!("face-spirv/{idx}.spv")), vertex);
                let kept = rf.uniforms.iter().any(|u| u.1 >= 2);
                let driver = rf.uniforms.iter().any(|u| u.1 == 1);
                let rest_equal = rm.samplers == rf.samplers && rm.inputs == rf.inputs;
                if rm == rf {
                    layout_equal += 1;
                    reads_equal += rm.reads.len();
                } else if kept && rest_equal {
                    layout_listed.push(format!("{label}: {KEPT}"));
                } else if driver && rest_equal {
                    layout_listed.push(format!("{label}: {DRIVER}"));
                } else {
                    hard.push(format!(
                        "spirv {label}: bindings differ: MojoShader {rm:?}, face {rf:?}"
                    ));
                }
            }
            for field in FIELDS
                .into_iter()
                .filter(|&f| profile != "spirv" || f != "blob")
            {
                let (a, b) = (mm.get(field), fm.get(field));
                if a == b {
                    *equal.entry(field).or_default() += 1;
                } else {
                    examples
                        .entry(field)
                        .or_insert_with(|| format!("{label}: MojoShader {a:?}, face {b:?}"));
                    if matches!(
                        field,
                        "shader"
                            | "swizzle"
                            | "symbol"
                            | "profile"
                            | "preshader"
                            | "constant"
                            | "sampler"
                            | "attribute"
                            | "output"
                            | "instruction_count"
                            | "mainfn"
                            | "uniform"
                            | "spirv_patch"
                            | "spirv_location_count"
                            | "spirv_attrib"
                            | "spirv_output"
                    ) || (profile == "bytecode" && field == "blob")
                    {
                        hard.push(format!(
                            "{profile} {label}: {field} differs: MojoShader {a:?}, face {b:?}"
                        ));
                    }
                }
            }
        }
        if profile == "spirv" {
            hard.extend(link_pairs(&mojo, &face, &out, &f, &m, &labels));
        }
        report.push_str(&format!(
            "{profile}: {} shaders; MojoShader accepts {mojo_ok}, the face {face_ok} ({face_only} MojoShader refuses); both {both}; equal:",
            f.len() - 1
        ));
        for (field, n) in &equal {
            report.push_str(&format!(" {field} {n}"));
        }
        report.push('\n');
        if profile == "spirv" {
            report.push_str(&format!(
                "  spirv resource layout (sets, bindings, uniform arrays, vertex inputs, the byte \
                 offset of every register read at a constant index: {reads_equal} in all): \
                 equal in {layout_equal}, {} listed:\n",
                layout_listed.len()
            ));
            for l in &layout_listed {
                report.push_str(&format!("    {l}\n"));
            }
        }
        for r in &refused {
            report.push_str(&format!("  the face refuses {r}\n"));
        }
        for (field, ex) in &examples {
            report.push_str(&format!("  first {field} difference: {ex}\n"));
        }
    }
    println!("{report}");
    std::fs::write(out.join("report.txt"), &report).unwrap();
    assert!(
        hard.is_empty(),
        "{} failures:\n{}\n\n{report}",
        hard.len(),
        hard[..hard.len().min(40)].join("\n")
    );
}
