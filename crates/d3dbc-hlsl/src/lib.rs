//! # d3dbc-hlsl
//!
//! Decompiles Direct3D 9 shader bytecode (vs/ps 1.x–3.0) to D3D9 HLSL — the language
//! of fxc's `vs_*`/`ps_*` profiles and vkd3d-shader — that compiles again and computes
//! what the original computes. [`decompile`] takes a decoded [`Shader`] and returns
//! the [`Decompiled`] text; [`compile`] runs an HLSL compiler (vkd3d-compiler) on it, so
//! that a caller can run both shaders and compare (`d3dbc_exec::equivalence` does, and
//! `d3dbc decompile --check`).
//!
//! ```
//! let ps = d3dbc::asm::assemble(
//!     "ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul oC0, r0, c0\n",
//!     &Default::default(),
//! ).unwrap();
//! let d = d3dbc_hlsl::decompile(&ps).unwrap();
//! assert!(d.hlsl.starts_with("// compile: -T ps_2_0 -E main"));
//! assert!(d.hlsl.contains("tex2D(s0, i.texcoord0.xy)"));
//! ```
//!
//! ## What the output looks like
//!
//! One `main` with an input and an output struct whose fields carry the original's
//! semantics; the constants and samplers of the constant table (CTAB) with their names,
//! types and explicit `register(…)`s, so the result is a drop-in replacement (without a
//! table, names from the registers: `c12`, `s0`); temporaries as `r#`; `def` constants
//! inline as literals; flow control as `if`/`for`/`break`, subroutines as functions;
//! `texkill` as `clip`, `texldp/b/l/d` as `tex2Dproj/bias/lod/grad` (and the cube and
//! volume forms), matrix instructions as `dot` rows.
//!
//! ## D3D9 rules written out
//!
//! Where HLSL's own meaning differs from what the D3D9 instruction does, the output
//! spells the D3D9 result:
//! - `rsq`, `log`, `pow` take the absolute value of their operand: `rsqrt(abs(x))`,
//!   `log2(abs(x))`, `pow(abs(x), y)`;
//! - `mova` rounds to nearest, halves away from zero (`d3d_round`, the executor's
//!   default [`d3dbc::MovaTies`]); vs_1_x `mov a0` floors; array indices are
//!   then integers, so the compiler's truncation of an index changes nothing;
//! - `lit` clamps its power to ±127.9961 (`d3d_lit`); `logp`/`expp` of vs_1_x give their
//!   four components (`d3d_logp`);
//! - ps_1_x: every result is held in ±8 (`ps1x`, [`d3dbc::Semantics::ps1x_max_value`]),
//!   constants are read clamped to [−1, 1], the colour output is saturated;
//! - `0 · ∞ = 0` in `mul`/`mad`/`dp*`, `rcp(0) = ∞`, `log(0) = −FLT_MAX`: the HLSL
//!   operators compile to the same D3D9 instructions, which carry these rules.
//!
//! ## Profiles
//!
//! The first line names the profile to compile with: the original's, or where no HLSL
//! compiler targets it the nearest that computes the same, with the reason
//! ([`Decompiled::profile`], [`Decompiled::profile_note`]).
//!
//! [`compile`]: fn@compile
#![warn(missing_docs)]

mod emit;
mod interface;
mod text;

pub mod compile;

use std::fmt::Write;

use d3dbc::{Shader, Version};

pub use compile::{compile, CompileError, Compiled, Compiler};

/// Why a shader could not be decompiled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The block structure is broken (what the runtime's validator rejects).
    #[error("{}: {why}", d3dbc::report::hex_offset(*offset as usize))]
    Structure {
        /// DWORD offset of the instruction.
        offset: u32,
        /// What is wrong.
        why: &'static str,
    },
    /// A construct HLSL cannot express.
    #[error("{}: {what} has no HLSL form", d3dbc::report::hex_offset(*offset as usize))]
    Unsupported {
        /// DWORD offset of the instruction.
        offset: u32,
        /// What it is.
        what: String,
    },
}

/// A decompiled shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Decompiled {
    /// The HLSL text. Its first line is `// compile: -T <profile> -E main`.
    pub hlsl: String,
    /// The profile to compile it with (`ps_3_0`).
    pub profile: String,
    /// Why the profile differs from the original's version, when it does.
    pub profile_note: Option<String>,
}

/// The entry point's name.
pub const ENTRY: &str = "main";

/// The profile an HLSL compiler can compile a shader of `v` with, and why it is not
/// `v`'s own when it is not. `branches`: the shader branches at run time (an `if`, a
/// `callnz`, a loop count from an integer constant), which vkd3d-compiler writes as
/// comparisons that vs_2_0 lacks; `relative`: a vertex shader addresses constants
/// relatively.
pub fn profile(v: Version, branches: bool, relative: bool) -> (String, Option<String>) {
    let kind = v.kind.prefix();
    match (v.is_pixel(), v.major, v.minor) {
        (false, 1, _) if relative => (
            "vs_2_0".into(),
            Some(format!(
                "{v}: vkd3d-compiler 1.17 writes vs_1_1 relative addressing with a vs_2_0 \
                 address token, which vs_1_1 readers reject; vs_2_0 computes the same, the \
                 index being floored as vs_1_1 does"
            )),
        ),
        (false, 2, 0) if branches => (
            "vs_2_a".into(),
            Some(
                "vs_2_0: vkd3d-compiler 1.17 writes branches on boolean and integer constants \
                 as comparisons (if_ne), which vs_2_0 lacks; vs_2_a computes the same"
                    .into(),
            ),
        ),
        (false, 1, 0) => (
            "vs_1_1".into(),
            Some("vs_1_0 has no HLSL profile; vs_1_1 runs the same instructions".into()),
        ),
        (true, 1, _) => (
            "ps_2_0".into(),
            Some(format!(
                "{v}: vkd3d-compiler 1.17 emits no ps_1_x texture or min/max instructions; \
                 ps_2_0 computes the same with the ps_1_x rules written out"
            )),
        ),
        (_, 2, 1) => (
            format!("{kind}_2_a"),
            Some(format!("{kind}_2_x is what the {kind}_2_a profile targets")),
        ),
        _ if v.is_software() => (
            format!("{kind}_3_0"),
            Some(format!(
                "{v} (software processing) has no HLSL profile; {kind}_3_0 computes the same"
            )),
        ),
        _ => (v.to_string(), None),
    }
}

/// Choices in how the HLSL is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Write a loop whose count comes from an integer constant (`rep i0`) as a loop of
    /// at most 255 iterations (D3D9's limit) that breaks at the count, instead of
    /// `[loop] for (…; k < i0.x; …)`: the same computation for a compiler that only
    /// unrolls loops (vkd3d-compiler 1.17 for shader model 1–3).
    pub bounded_loops: bool,
}

/// Decompiles `shader` to HLSL.
pub fn decompile(shader: &Shader) -> Result<Decompiled, Error> {
    decompile_with(shader, &Options::default())
}

/// Decompiles `shader` to HLSL, written as `options` asks.
pub fn decompile_with(shader: &Shader, options: &Options) -> Result<Decompiled, Error> {
    let mut e = emit::Emitter::new(shader)?;
    e.bounded_loops = options.bounded_loops;
    let reads = e.scan()?;
    let ctab = shader.ctab().and_then(Result::ok);
    e.u = interface::Uniforms::declare(shader, &e.a, ctab.as_ref(), &reads);
    e.interface()?;
    e.plan_folds();
    e.body()?;
    Ok(assemble(&e, ctab.as_ref()))
}

fn assemble(e: &emit::Emitter, ctab: Option<&d3dbc::Ctab>) -> Decompiled {
    let v = e.v;
    let branches = e.dynamic_loops
        || e.a
            .instructions
            .iter()
            .any(|i| matches!(i.opcode, d3dbc::Opcode::If | d3dbc::Opcode::CallNz));
    let relative = e.uses_a0;
    let (profile, note) = profile(v, branches, relative);
    let mut out = String::new();
    let _ = writeln!(out, "// compile: -T {profile} -E {ENTRY}");
    if let Some(n) = &note {
        let _ = writeln!(out, "// ({n})");
    }
    let _ = write!(out, "// Decompiled from {v} bytecode by d3dbc-hlsl");
    match ctab {
        Some(t) if !t.creator.is_empty() => {
            let _ = writeln!(out, "; original by {}", t.creator.trim());
        }
        _ => out.push('\n'),
    }
    out.push('\n');
    let max = d3dbc::Semantics::default().ps1x_max_value;
    for h in &e.helpers {
        out.push_str(&emit::helper_text(*h, max));
        out.push('\n');
    }
    if !e.u.decls.is_empty() {
        out.push_str(&e.u.decls);
        out.push('\n');
    }
    let (tin, tout) = if v.is_pixel() {
        ("PS_INPUT", "PS_OUTPUT")
    } else {
        ("VS_INPUT", "VS_OUTPUT")
    };
    let has_in = !e.inputs.is_empty();
    if has_in {
        let _ = writeln!(out, "struct {tin}\n{{");
        for f in &e.inputs {
            let _ = writeln!(out, "    {} {} : {};", f.ty, f.name, f.semantic);
        }
        out.push_str("};\n\n");
    }
    let _ = writeln!(out, "struct {tout}\n{{");
    for f in &e.outputs {
        let _ = writeln!(out, "    {} {} : {};", f.ty, f.name, f.semantic);
    }
    out.push_str("};\n\n");
    // Registers as variables: locals of main, or globals shared with subroutines.
    let mut vars = Vec::new();
    // Temporaries every statement that used them was folded away from are left out.
    let named = |name: &str| {
        [&e.body, &e.subs].iter().any(|text| {
            text.match_indices(name).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
    };
    for &t in e
        .temps
        .iter()
        .filter(|t| named(&format!("r{t}")) || (e.ps1 && **t == 0))
    {
        let init = e.temps_init.contains(&t) || e.globals;
        vars.push((format!("float4 r{t}"), init.then_some("0")));
    }
    if e.ps1 && v.minor < 4 {
        for &t in &e.ps1_t {
            vars.push((format!("float4 t{t}"), Some("")));
        }
    }
    if e.uses_a0 {
        vars.push(("float4 a0".into(), Some("0")));
    }
    if e.uses_p0 {
        vars.push(("bool4 p0".into(), Some("false")));
    }
    if e.uses_m3 {
        vars.push(("float4 m3".into(), Some("0")));
    }
    if e.uses_eye {
        vars.push(("float3 e".into(), Some("0")));
    }
    let mut main = String::new();
    let input_param = if has_in {
        if e.globals {
            format!("{tin} input")
        } else {
            format!("{tin} i")
        }
    } else {
        String::new()
    };
    if e.globals {
        for (decl, _) in &vars {
            let _ = writeln!(out, "static {decl};");
        }
        if has_in {
            let _ = writeln!(out, "static {tin} i;");
        }
        let _ = writeln!(out, "static {tout} o;\n");
        out.push_str(&e.subs);
        let _ = writeln!(main, "{tout} {ENTRY}({input_param})\n{{");
        if has_in {
            main.push_str("    i = input;\n");
        }
        let _ = writeln!(main, "    o = ({tout})0;");
        for (decl, init) in &vars {
            let name = decl.rsplit(' ').next().unwrap_or("");
            match init {
                Some("") => {
                    let _ = writeln!(main, "    {name} = i.texcoord{};", &name[1..]);
                }
                Some(x) => {
                    let _ = writeln!(main, "    {name} = {x};");
                }
                None => {}
            }
        }
    } else {
        let _ = writeln!(main, "{tout} {ENTRY}({input_param})\n{{");
        let _ = writeln!(main, "    {tout} o = ({tout})0;");
        for (decl, init) in &vars {
            let name = decl.rsplit(' ').next().unwrap_or("");
            match init {
                Some("") => {
                    let _ = writeln!(main, "    {decl} = i.texcoord{};", &name[1..]);
                }
                Some(x) => {
                    let _ = writeln!(main, "    {decl} = {x};");
                }
                None => {
                    let _ = writeln!(main, "    {decl};");
                }
            }
        }
    }
    main.push_str(&e.body);
    if e.ps1 {
        main.push_str("    // ps_1_x: the colour output is r0, saturated\n");
        main.push_str("    o.color0 = saturate(r0);\n");
    }
    let _ = writeln!(main, "    return o;\n}}");
    out.push_str(&main);
    Decompiled {
        hlsl: out,
        profile,
        profile_note: note,
    }
}

/// A decompilation compiled again.
#[derive(Clone, Debug)]
pub struct Recompiled {
    /// The HLSL that compiled.
    pub decompiled: Decompiled,
    /// The compiler's bytecode, decoded.
    pub shader: Shader,
    /// What the compiler warned about.
    pub warnings: String,
}

/// Why [`recompile`] gave no shader.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecompileError {
    /// The shader did not decompile.
    #[error("decompile: {0}")]
    Decompile(#[from] Error),
    /// The compiler rejected the HLSL (its message), or could not run.
    #[error("did not compile: {0}")]
    Compile(#[from] CompileError),
    /// The compiler's output does not decode.
    #[error("the compiler's output does not decode: {0}")]
    Decode(#[from] d3dbc::DecodeError),
}

/// Longest time the bounded-loop form may take to compile (see [`recompile`]).
pub const BOUNDED_LOOP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// Decompiles `shader` and compiles the HLSL with `compiler` for its profile. When the
/// compiler has no run-time loops (vkd3d-compiler 1.17: "HLSL_IR_LOOP" not implemented),
/// the shader is decompiled again with [`Options::bounded_loops`] and that text compiled
/// (for at most [`BOUNDED_LOOP_TIMEOUT`]: a long body unrolled 255 times can take the
/// compiler minutes). Run both on the executor to prove them equal:
/// `d3dbc_exec::equivalence::check(shader, &recompiled.shader, …)`.
pub fn recompile(shader: &Shader, compiler: &Compiler) -> Result<Recompiled, RecompileError> {
    let d = decompile(shader)?;
    let (d, compiled) = match compiler.compile(&d.hlsl, &d.profile) {
        Ok(c) => (d, c),
        Err(CompileError::Rejected { message }) if message.contains("HLSL_IR_LOOP") => {
            let bounded = decompile_with(
                shader,
                &Options {
                    bounded_loops: true,
                },
            )?;
            let quick = Compiler {
                timeout: compiler.timeout.min(BOUNDED_LOOP_TIMEOUT),
                ..compiler.clone()
            };
            let c = quick
                .compile(&bounded.hlsl, &bounded.profile)
                .map_err(|e| match e {
                    CompileError::Timeout(t) => CompileError::Rejected {
                        message: format!(
                            "{message}\n(the loop unrolled 255 times did not compile within {t:?})"
                        ),
                    },
                    e => e,
                })?;
            (bounded, c)
        }
        Err(e) => return Err(e.into()),
    };
    let recompiled = Shader::decode(&compiled.tokens)?;
    Ok(Recompiled {
        decompiled: d,
        shader: recompiled,
        warnings: compiled.warnings,
    })
}
