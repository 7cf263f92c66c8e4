//! The validator: the rules the D3D9 runtime applies before a driver sees a shader,
//! per shader version, each finding with a stable code, DWORD offset and reason.
//!
//! [`validate`] walks the IR once, in stream order (SM2 shaders with subroutines twice,
//! see below), keeping only small fixed tables (written-register masks, declared
//! registers, a flow-control stack, slot counters), so its cost is linear in the shader
//! and it allocates and formats nothing unless it makes a finding. The facts that depend
//! only on the version and the opcode (legality, layout, slots, which register types,
//! numbers, modifiers and swizzles each operand may have, which result modifiers are
//! allowed) are tabled once per version, from the same rule functions the full checks
//! use; the common instruction is then checked with a few bit tests, and the full rule
//! code runs only where a table says a rule might fire. Every rule has a row in
//! [`rules()`] (code, family, versions, summary, the Microsoft documentation page it
//! comes from); `docs/validation.md` is written from that table.
//!
//! Where a limit depends on device caps (`_x` models, `vs_3_0` slot counts, constant
//! counts of `vs_1_1`), the documented maximum is used, so that anything some D3D9
//! device accepts validates clean here. `_sw` models get their larger software limits.

use crate::diag::Severity;
use std::sync::OnceLock;

use crate::ir::{DstParam, Instruction, Item, Register, Shader, SrcParam};
use crate::opcode::{Layout, Opcode, SlotClass, OPCODES};
use crate::token::{result_modifier, RegisterType, SamplerType, SrcModifier};
use crate::version::{ShaderKind, Version, MINOR_SW};

/// One rule violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Stable rule code (`E0203`), a row of [`rules()`].
    pub code: &'static str,
    /// Error (the runtime rejects the shader) or warning.
    pub severity: Severity,
    /// Index into `shader.items` of the offending instruction (for whole-shader
    /// findings, the last item, or 0 for an empty shader).
    pub item: usize,
    /// DWORD offset of the instruction token (the version token is offset 0).
    pub offset: usize,
    /// One line: what is wrong, and the rule's documentation page in brackets.
    pub message: String,
}

/// One rule of the validator, as documented in `docs/validation.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable code, `E` + family digits + number.
    pub code: &'static str,
    /// Rule family (instructions, registers, modifiers, declarations, flow control,
    /// ps_1_x, counts).
    pub family: &'static str,
    /// Shader versions the rule applies to.
    pub versions: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// The Microsoft D3D9 documentation page(s) the rule is taken from.
    pub source: &'static str,
}

const F_INS: &str = "instructions";
const F_REG: &str = "registers";
const F_MOD: &str = "modifiers";
const F_DCL: &str = "declarations";
const F_FLOW: &str = "flow control";
const F_PS1: &str = "ps_1_x";
const F_CNT: &str = "counts";

macro_rules! rules {
    ($( $code:literal, $fam:expr, $ver:literal, $sum:literal, $src:literal; )*) => {
        static RULES: &[Rule] = &[ $( Rule { code: $code, family: $fam, versions: $ver, summary: $sum, source: $src }, )* ];
    };
}

rules! {
    // --- instruction availability and operand shape ---
    "E0101", F_INS, "all", "the opcode does not exist in this shader version",
        "Instructions - vs_1_1/vs_2_0/vs_2_x/vs_3_0, Instructions - ps_1_1../ps_3_0 (instruction tables)";
    "E0102", F_INS, "vs_2_x+, ps_2_x+", "ifc/breakc/setp need a comparison (gt, eq, ge, lt, ne, le) in the controls field",
        "if_comp - vs, break_comp - vs, setp_comp - vs (and the - ps pages)";
    "E0103", F_INS, "all", "controls field set on an instruction that has none (texldp/texldb controls only on texld in ps_2_0+)",
        "texld - ps_2_0 and up, texldp - ps, texldb - ps; D3DSHADER_INSTRUCTION_OPCODE_TYPE";
    "E0104", F_INS, "all", "an operand has the wrong register type for this instruction (e.g. texld sampler not s#, loop not aL/i#, mova not a0)",
        "per-instruction pages (texld, loop - vs, rep - vs, if bool, callnz, mova - vs, setp_comp, label, texkill ...)";

    // --- registers ---
    "E0201", F_REG, "all", "register type cannot be read in this shader version",
        "Registers - vs_1_1, vs_2_0, vs_2_x, vs_3_0; Registers - ps_1_x, ps_2_0, ps_2_x, ps_3_0";
    "E0202", F_REG, "all", "register type cannot be written in this shader version",
        "Registers - vs_1_1 ... ps_3_0 (read/write columns)";
    "E0203", F_REG, "all", "register index out of range for this shader version",
        "Registers - vs_1_1, vs_2_0, vs_2_x, vs_3_0; Registers - ps_1_X, ps_2_0, ps_2_x, ps_3_0 (register counts)";
    "E0204", F_REG, "vs_1_1-vs_2_x, ps_1_1-ps_2_x", "a temporary register is read before any instruction wrote it",
        "Temporary Register (HLSL VS reference); Temporary register (HLSL PS reference)";
    "E0205", F_REG, "all", "write to a read-only register (input, constant, sampler, texture coordinate in ps_1_4+ ...)",
        "Registers - vs_1_1 ... vs_3_0, Registers - ps_1_X ... ps_3_0 (read-only registers)";
    "E0206", F_REG, "all", "relative addressing not allowed on this operand or with this address register",
        "Relative Addressing (vs), Registers - vs_3_0 (o[aL], v[aL]), Registers - ps_3_0 (v[aL], c[aL])";
    "E0207", F_REG, "vs_2_0+, ps_3_0", "the loop counter aL is used outside a loop",
        "Loop Counter Register (vs, ps); loop - vs";
    "E0208", F_REG, "vs (not _sw)", "warning: constant c256 or above; only devices with software vertex processing expose more than 256 (hardware devices reject it)",
        "Constant Float Register (HLSL VS reference); D3DCAPS9 (MaxVertexShaderConst)";

    // --- modifiers ---
    "E0301", F_MOD, "all", "source modifier not allowed here in this shader version",
        "Vertex Shader Source Register Modifiers; Pixel Shader Source Register Modifiers";
    "E0302", F_MOD, "all", "result modifier (_sat, _pp, _centroid) not allowed here",
        "Destination Register Modifiers (vs, ps); Pixel Shader Instruction Modifiers; dcl_usage input (centroid)";
    "E0303", F_MOD, "ps_1_x", "result shift (_x2/_x4/_x8/_d2/_d4/_d8) not allowed here",
        "Instruction Modifiers - ps_1_x (shift modifiers)";
    "E0304", F_MOD, "ps_1_x", "co-issue only in ps_1_x, on an arithmetic instruction following another, writing disjoint colour/alpha masks",
        "Co-issued instructions - ps_1_1 - ps_1_4";
    "E0305", F_MOD, "all", "a replicate swizzle (.x/.y/.z/.w) is required on this source",
        "rcp, rsq, exp, log, pow, expp, logp, if_comp, break_comp, if pred, callnz pred, breakp pages";
    "E0306", F_MOD, "all", "destination write mask not allowed for this instruction (sincos, crs, m3x2..m4x4, bem, texld ...)",
        "sincos - vs/ps, crs - vs/ps, m3x2..m4x4 - vs/ps, bem - ps, texld - ps_2_0 and up, Destination Register Write Mask";
    "E0307", F_MOD, "ps_2_0, ps_1_x", "source swizzle not supported by this version (arbitrary swizzle needs ps_2_x)",
        "Source register swizzling (HLSL PS reference); texld - ps_2_0 and up (no swizzle on src)";
    "E0308", F_MOD, "all", "matrix/cross-product/normalize operand constraints (no swizzle/negate on the matrix source, dst not a source, nrm dst a temp)",
        "m4x4 - vs/ps (and m4x3, m3x4, m3x3, m3x2), crs - vs/ps, nrm - vs/ps";
    "E0309", F_MOD, "vs_2_x+, ps_2_x+", "predication not allowed in this version or on this instruction",
        "Predicate Register; setp_comp; Instruction Modifiers (predication)";

    // --- declarations ---
    "E0401", F_DCL, "vs_2_0+, ps_2_0+", "register used without a dcl (inputs vs_2_0+, outputs vs_3_0, t#/v#/s# ps_2_0+)",
        "dcl_usage input register (vs/ps), dcl_samplerType (sm2, sm3 - ps asm), Registers - ps_2_0";
    "E0402", F_DCL, "all with dcl", "dcl of a register type the version cannot declare, or a usage form it does not take",
        "dcl_usage input (sm1, sm2, sm3 - vs asm), dcl_usage output (sm3 - vs), dcl_usage input (sm2, sm3 - ps asm)";
    "E0403", F_DCL, "all with dcl", "register or semantic declared twice (vs_3_0 outputs / ps_3_0 inputs may split by disjoint masks)",
        "dcl_usage output (sm3 - vs asm); dcl_usage input (sm2, sm3 - vs/ps asm)";
    "E0404", F_DCL, "vs_3_0, ps_2_0+", "sampler declared with an unknown texture type",
        "dcl_samplerType (sm2, sm3 - ps asm), dcl_samplerType (sm3 - vs asm); D3DSAMPLER_TEXTURE_TYPE";
    "E0405", F_DCL, "all", "dcl/def/defi/defb after the first executable instruction",
        "def - vs/ps, defi, defb, dcl_usage (declarations precede instructions)";
    "E0406", F_DCL, "all with dcl", "declaration usage or usage index out of range",
        "D3DDECLUSAGE; dcl_usage input (sm2, sm3 - ps asm) (texcoord0-7, color0-1)";
    "E0407", F_DCL, "vs_3_0", "warning: an output register declared for two usages with overlapping masks (the docs ask for disjoint masks; shipped shaders do it and run)",
        "dcl_usage output (sm3 - vs asm); HelixMod TheLongDark overrides (dcl_fog o9 + dcl_color o9)";
    "E0408", F_DCL, "ps_3_0", "warning: vPos or vFace read without a dcl (the docs require one; shipped shaders omit it and the runtime accepts them)",
        "Registers - ps_3_0 (misc registers need dcl); HelixMod Betrayer overrides (vPos.xy read without dcl vPos)";

    // --- flow control ---
    "E0501", F_FLOW, "vs_2_0+, ps_2_x+", "else/endif without an open if",
        "else - vs/ps, endif - vs/ps";
    "E0502", F_FLOW, "vs_2_0+, ps_2_x+", "endloop/endrep without the matching open loop/rep",
        "endloop - vs/ps, endrep - vs/ps";
    "E0503", F_FLOW, "vs_2_0+, ps_2_x+", "flow-control block still open at the end of the shader or subroutine",
        "if bool, loop, rep pages (each needs its closing instruction)";
    "E0504", F_FLOW, "vs_2_x+, ps_2_x+", "break/breakc/breakp outside a loop or rep",
        "break - vs/ps, break_comp, breakp";
    "E0505", F_FLOW, "vs_2_0+, ps_2_x+", "flow-control nesting depth exceeds the version's limit",
        "Flow Control Nesting Limits (vs); Flow Control Limitations (ps)";
    "E0506", F_FLOW, "vs_2_0+, ps_2_x+", "call/label/ret structure: label only after the main ret, defined once; call targets defined",
        "label - vs/ps, call - vs/ps, callnz, ret - vs/ps";

    // --- ps_1_x specifics ---
    "E0601", F_PS1, "ps_1_1-ps_1_4", "texture instruction after an arithmetic instruction (per phase in ps_1_4)",
        "Texture Addressing Instructions ps_1_1-ps_1_3; phase - ps; texld - ps_1_4";
    "E0602", F_PS1, "ps_1_1-ps_1_3", "texm3x2pad/texm3x3pad sequence broken (wrong follower, register numbers not consecutive, different source)",
        "texm3x2pad - ps, texm3x2tex - ps, texm3x3pad - ps, texm3x3tex/spec/vspec - ps, texm3x2depth";
    "E0603", F_PS1, "ps_1_1-ps_1_3", "texture instruction source t# must be numbered below its destination t#",
        "texbem, texbeml, texreg2ar, texreg2gb, texm3x2pad, texm3x3pad ... - ps (register rules)";
    "E0604", F_PS1, "ps_1_4", "phase rules: at most one phase; texcrd/texld sources t# in phase 1",
        "phase - ps; texcrd - ps; texld - ps_1_4";
    "E0605", F_PS1, "ps_1_1-ps_1_3", "a texture register is written by more than one texture instruction",
        "Texture Register (HLSL PS reference); tex - ps, texm3x2pad - ps";

    // --- counts ---
    "E0701", F_CNT, "all", "too many instruction slots for this version",
        "vs_1_1, vs_2_0, vs_2_x, vs_3_0, ps_2_x, ps_3_0 (instruction slots); D3DCAPS9 (MaxVertexShader30InstructionSlots, MaxPixelShader30InstructionSlots)";
    "E0702", F_CNT, "ps_1_x, ps_2_0", "too many texture-addressing instruction slots (ps_1_1-1_3: 4, ps_1_4: 6 per phase, ps_2_0: 32)",
        "ps_1_1 - ps_1_3, ps_1_4, ps_2_0 (instruction counts)";
    "E0703", F_CNT, "ps_1_x, ps_2_0", "too many arithmetic instruction slots (ps_1_x: 8 (per phase in ps_1_4), ps_2_0: 64)",
        "ps_1_1 - ps_1_3, ps_1_4, ps_2_0 (instruction counts)";
    "E0704", F_CNT, "ps_1_4, ps_2_0", "dependent texture read deeper than allowed (ps_1_4: only in phase 2; ps_2_0: at most third order)",
        "texld - ps_2_0 and up (dependent read order); texld - ps_1_4; phase - ps";
}

/// Every rule the validator applies, in code order.
pub fn rules() -> &'static [Rule] {
    RULES
}

fn rule_source(code: &str) -> &'static str {
    // RULES is sorted by code (checked by a unit test).
    RULES
        .binary_search_by(|r| r.code.cmp(code))
        .map(|i| RULES[i].source)
        .unwrap_or("")
}

// ---------------------------------------------------------------------------------------
// Per-version register facts.
// ---------------------------------------------------------------------------------------

use crate::regs::{runtime_file as reg_file, Name as RegName, RegFile};

fn is_const_float(t: RegisterType) -> bool {
    matches!(
        t,
        RegisterType::Const | RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4
    )
}

/// Registers that carry float data an arithmetic instruction may read.
fn is_float_source(v: Version, t: RegisterType) -> bool {
    use RegisterType::*;
    match t {
        Temp | Input | Const | Const2 | Const3 | Const4 | MiscType => true,
        AddrOrTexture => v.is_pixel(),
        _ => false,
    }
}

fn replicate(swz: u8) -> bool {
    let c = swz & 3;
    swz == c * 0x55
}

/// Maximum slot counts, `(total, arithmetic, texture)`; `u32::MAX` = no limit.
/// vs_1_1 128; vs_2_0, vs_2_x 256; vs_3_0 up to 32768 (MaxVertexShader30InstructionSlots);
/// ps_1_1-1_3 8+4; ps_1_4 8+6 per phase; ps_2_0 64+32; ps_2_x 512; ps_3_0 up to 32768.
fn slot_limits(v: Version) -> (u32, u32, u32) {
    const NO: u32 = u32::MAX;
    if v.is_software() {
        return (NO, NO, NO);
    }
    match (v.kind, v.code()) {
        (ShaderKind::Vertex, 0x0100..=0x0101) => (128, NO, NO),
        (ShaderKind::Vertex, 0x0200..=0x0201) => (256, NO, NO),
        (ShaderKind::Vertex, _) => (32768, NO, NO),
        (ShaderKind::Pixel, 0x0100..=0x0103) => (NO, 8, 4),
        (ShaderKind::Pixel, 0x0104) => (NO, 8, 6),
        (ShaderKind::Pixel, 0x0200) => (NO, 64, 32),
        (ShaderKind::Pixel, 0x0201) => (512, NO, NO),
        (ShaderKind::Pixel, _) => (32768, NO, NO),
    }
}

/// Flow-control nesting limits `(loop/rep, if bool (static), if pred/comp (dynamic))`:
/// Flow Control Nesting Limits (vs): vs_2_0 loop/rep 1; vs_2_x, vs_3_0 loop/rep 4,
/// static 24, dynamic 24 (caps maximum); Flow Control Limitations (ps): same for
/// ps_2_x, ps_3_0.
fn nesting_limits(v: Version) -> (u32, u32, u32) {
    if v.is_software() {
        return (4, 24, 24);
    }
    match (v.kind, v.code()) {
        (ShaderKind::Vertex, 0x0200) => (1, 16, 24),
        _ => (4, 24, 24),
    }
}

// ---------------------------------------------------------------------------------------
// Per-version tables.
// ---------------------------------------------------------------------------------------

/// Opcode groups the pass dispatches on.
mod flag {
    /// `dcl`, `def`, `defi`, `defb`.
    pub const DECL: u16 = 1;
    /// `phase`, `nop`, `comment`, `end`: neither declarations nor executable.
    pub const NOT_EXEC: u16 = 2;
    /// Has a case in `State::flow`.
    pub const FLOW: u16 = 4;
    /// Has a case in `State::specific`.
    pub const SPECIFIC: u16 = 8;
    /// `texld`, `texldd`, `texldl` (the E0306 write-mask rule of `State::specific`).
    pub const TEXLD: u16 = 16;
    /// `sgn` (scratch-register sources).
    pub const SGN: u16 = 32;
    /// `texkill` (its destination is read).
    pub const KILL: u16 = 64;
}

fn op_flags(op: Opcode) -> u16 {
    use Opcode::*;
    let mut f = 0;
    if matches!(op, Dcl | Def | DefI | DefB) {
        f |= flag::DECL;
    }
    if matches!(op, Phase | Nop | Comment | End) {
        f |= flag::NOT_EXEC;
    }
    if matches!(
        op,
        If | IfC
            | Else
            | EndIf
            | Loop
            | Rep
            | EndLoop
            | EndRep
            | Break
            | BreakC
            | BreakP
            | Call
            | CallNz
            | Label
            | Ret
    ) {
        f |= flag::FLOW;
    }
    if matches!(
        op,
        SinCos | Crs | M4x4 | M4x3 | M3x4 | M3x3 | M3x2 | Nrm | Bem
    ) {
        f |= flag::SPECIFIC;
    }
    if matches!(op, Tex | TexLdd | TexLdl) {
        f |= flag::TEXLD;
    }
    if op == Sgn {
        f |= flag::SGN;
    }
    if op == TexKill {
        f |= flag::KILL;
    }
    f
}

/// The E0104 rule for source `k` of `op`: may it be a register of type `t`?
fn src_role_ok(v: Version, op: Opcode, k: usize, t: RegisterType) -> bool {
    match op {
        Opcode::Call | Opcode::Label => t == RegisterType::Label,
        Opcode::CallNz => {
            if k == 0 {
                t == RegisterType::Label
            } else {
                matches!(t, RegisterType::ConstBool | RegisterType::Predicate)
            }
        }
        Opcode::If => matches!(t, RegisterType::ConstBool | RegisterType::Predicate),
        Opcode::BreakP => t == RegisterType::Predicate,
        Opcode::Loop => {
            if k == 0 {
                t == RegisterType::Loop
            } else {
                t == RegisterType::ConstInt
            }
        }
        Opcode::Rep => t == RegisterType::ConstInt,
        Opcode::Tex | Opcode::TexLdl | Opcode::TexLdd if k == 1 => t == RegisterType::Sampler,
        Opcode::Tex if v.code() == 0x0104 => {
            matches!(t, RegisterType::AddrOrTexture | RegisterType::Temp)
        }
        Opcode::TexCoord => t == RegisterType::AddrOrTexture,
        Opcode::Tex if v.major == 2 => {
            matches!(t, RegisterType::AddrOrTexture | RegisterType::Temp)
        }
        _ => {
            // Arithmetic and texture operations read float data.
            is_float_source(v, t) && !(v.code() == 0x0104 && t == RegisterType::AddrOrTexture)
        }
    }
}

/// The E0104 rule for the destination of `op`.
fn dst_role_ok(v: Version, op: Opcode, r: Register) -> bool {
    match op {
        Opcode::Mova => r.kind == RegisterType::AddrOrTexture,
        Opcode::SetP => r.kind == RegisterType::Predicate,
        Opcode::Mov if v.is_vertex() && r.kind == RegisterType::AddrOrTexture => v.major == 1,
        _ if r.kind == RegisterType::Predicate
            || r.kind == RegisterType::AddrOrTexture && v.is_vertex() =>
        {
            false
        }
        // ps_3_0: Microsoft's own fxc 5.04 writes `texld oC0, v0, s0` (oblivion
        // HLSL/COPY000), so colour/depth outputs are accepted there.
        Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl if v.is_pixel() && v.major >= 3 => {
            matches!(
                r.kind,
                RegisterType::Temp | RegisterType::ColorOut | RegisterType::DepthOut
            )
        }
        Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl if v.is_pixel() && v.code() >= 0x0104 => {
            r.kind == RegisterType::Temp
        }
        Opcode::TexCoord if v.code() == 0x0104 => r.kind == RegisterType::Temp,
        Opcode::TexDepth => r.kind == RegisterType::Temp && r.num == 5,
        _ if op.slot_class() == SlotClass::Texture && v.major == 1 && v.minor < 4 => {
            r.kind == RegisterType::AddrOrTexture
        }
        _ => true,
    }
}

/// texld - ps_2_0 and up: src0 (and the sampler) "with no modifier or swizzle" in
/// ps_2_0/ps_2_x.
fn is_tex_coord(v: Version, op: Opcode, k: usize) -> bool {
    v.is_pixel()
        && v.major == 2
        && k < 2
        && matches!(op, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl)
}

/// The E0301 rule: may source `k` of `op`, a register of type `r`, carry modifier `m`?
fn src_mod_ok(v: Version, op: Opcode, k: usize, m: SrcModifier, r: RegisterType) -> bool {
    use SrcModifier as M;
    let ok = match (v.kind, v.major) {
        _ if m == M::None => true,
        _ if m == M::Not => {
            matches!(r, RegisterType::ConstBool | RegisterType::Predicate)
        }
        (ShaderKind::Vertex, _) => {
            matches!(m, M::Neg) || (matches!(m, M::Abs | M::AbsNeg) && v.major >= 3)
        }
        (ShaderKind::Pixel, 1) => {
            let tex_op = op.slot_class() == SlotClass::Texture;
            match m {
                M::Abs | M::AbsNeg | M::Not => false,
                M::Dz | M::Dw => v.minor == 4 && matches!(op, Opcode::Tex | Opcode::TexCoord),
                M::Sign if tex_op => v.minor <= 3,
                M::X2 | M::X2Neg => v.minor == 4 && !tex_op,
                _ => !(tex_op || v.minor == 4 && is_const_float(r)),
            }
        }
        (ShaderKind::Pixel, _) => matches!(m, M::Neg | M::Abs | M::AbsNeg),
    };
    // Integer, loop, label, sampler, boolean and predicate operands take no float
    // modifiers (loop - vs, rep - vs, call, texld: "s# with no modifier").
    let non_float = matches!(
        r,
        RegisterType::ConstInt
            | RegisterType::Loop
            | RegisterType::Label
            | RegisterType::Sampler
            | RegisterType::ConstBool
            | RegisterType::Predicate
    );
    ok && !(m != M::None && m != M::Not && non_float) && !(is_tex_coord(v, op, k) && m != M::None)
}

/// The E0307 rule of ps_1_x and ps_2_0 for a source swizzle (other than a texld
/// coordinate's or a replicate-swizzle operand's).
fn ps_swizzle_ok(v: Version, s: u8) -> bool {
    if v.major == 1 {
        // ps_1_x: identity, replicate and the ps_1_4 texld/texcrd .xyz/.xyw forms.
        s == 0xE4
            || replicate(s)
            || (v.minor == 4 && matches!(s, 0xA4 | 0xF4))
            || matches!(s, 0xC9 | 0xD2 | 0x1B)
    } else {
        // ps_2_0: identity, replicate, .yzxw, .zxyw, .wzyx.
        s == 0xE4 || replicate(s) || matches!(s, 0xC9 | 0xD2 | 0x1B)
    }
}

/// The E0305 rule: must source `k` of `op` (type `r`, swizzle `s`) have a replicate
/// swizzle?
fn needs_replicate(v: Version, op: Opcode, k: usize, r: RegisterType, s: u8) -> bool {
    // Flow-control / integer / sampler operands take no negate/abs and no swizzle games.
    match op {
        // vs_1_x: no swizzle means .w (vs_1_1 rcp, rsq, exp, log, expp, logp).
        Opcode::Rcp | Opcode::Rsq | Opcode::Exp | Opcode::Log | Opcode::ExpP | Opcode::LogP => {
            !(v.is_vertex() && v.major == 1 && s == 0xE4)
        }
        Opcode::Pow => true,
        Opcode::IfC | Opcode::BreakC => true,
        Opcode::If | Opcode::BreakP => r == RegisterType::Predicate,
        Opcode::CallNz => k == 1 && r == RegisterType::Predicate,
        _ => false,
    }
}

/// The E0307 rule: may source `k` of `op` have swizzle `s` (`needs_rep`: E0305 applies
/// to it instead)?
fn swizzle_ok(v: Version, op: Opcode, k: usize, needs_rep: bool, s: u8) -> bool {
    if is_tex_coord(v, op, k) {
        s == 0xE4
    } else if v.is_pixel() && v.code() <= 0x0200 && !needs_rep {
        let tex_src = matches!(op, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl) && v.major == 2;
        if tex_src {
            s == 0xE4
        } else {
            ps_swizzle_ok(v, s)
        }
    } else {
        true
    }
}

/// Opcodes with their own E0305/E0307 swizzle rules (named in [`needs_replicate`] and
/// [`swizzle_ok`]); every other opcode follows the version's rule.
fn op_swizzle_rules(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Rcp | Rsq
            | Exp
            | Log
            | ExpP
            | LogP
            | Pow
            | IfC
            | BreakC
            | If
            | BreakP
            | CallNz
            | Tex
            | TexLdd
            | TexLdl
    )
}

/// The swizzles (bit `s`) source `k` of `op` may have without an E0305 or E0307 finding,
/// whatever its register type; none where the rule depends on the type (`if`,
/// `breakp`, `callnz`).
fn src_swizzles(v: Version, op: Opcode, k: usize) -> [u64; 4] {
    let mut bits = [0u64; 4];
    if !matches!(op, Opcode::If | Opcode::BreakP | Opcode::CallNz) {
        for s in 0..=255u8 {
            let nr = needs_replicate(v, op, k, RegisterType::Temp, s);
            if (!nr || replicate(s)) && swizzle_ok(v, op, k, nr, s) {
                bits[s as usize >> 6] |= 1 << (s & 63);
            }
        }
    }
    bits
}

/// `_sat` on an instruction of `tex` class (texture or not) in `v`.
fn sat_ok(v: Version, tex: bool) -> bool {
    match v.kind {
        ShaderKind::Vertex => v.major >= 3,
        // "Instruction modifiers ... may not be used on texture address instructions."
        ShaderKind::Pixel => !(v.major == 1 && tex),
    }
}

/// `_pp` in `v`.
fn pp_ok(v: Version) -> bool {
    v.is_pixel() && v.major >= 2
}

/// `_centroid` on an instruction of `tex` class in `v`.
fn centroid_ok(v: Version, tex: bool) -> bool {
    v.is_pixel() && v.major >= 2 && tex
}

/// Whether reading a register of type `t` needs a `dcl` in `v`.
fn needs_dcl(v: Version, t: RegisterType) -> bool {
    match (v.kind, t) {
        (ShaderKind::Vertex, RegisterType::Input) => v.major >= 2,
        (ShaderKind::Vertex, RegisterType::Sampler) => true,
        (ShaderKind::Pixel, RegisterType::Input) => v.major >= 2,
        (ShaderKind::Pixel, RegisterType::AddrOrTexture) => v.major >= 2,
        (ShaderKind::Pixel, RegisterType::Sampler) => true,
        (ShaderKind::Pixel, RegisterType::MiscType) => true,
        _ => false,
    }
}

/// The register types (bit `t as u32`) for which `f` holds.
fn type_mask(f: impl Fn(RegisterType) -> bool) -> u32 {
    (0..32u8)
        .filter_map(RegisterType::from_u8)
        .filter(|&t| f(t))
        .fold(0, |m, t| m | 1 << t as u32)
}

/// Facts of one opcode in one shader version, looked up once per instruction (the
/// fields every instruction reads first, to keep them in one cache line).
#[derive(Clone, Copy)]
#[repr(C)]
struct OpFacts {
    legal: bool,
    /// Takes `State::instruction_full` (declarations, flow control, instruction-specific
    /// rules, texkill).
    full: bool,
    class: SlotClass,
    /// `texld` in 2.0 models: E0306 applies to the write mask.
    texld_mask: bool,
    /// `flag::*` bits.
    flags: u16,
    /// The controls values that need no check (E0102, E0103), inclusive.
    ctrl: (u8, u8),
    /// Legal and not `full`.
    plain: bool,
    layout: Layout,
    /// Per source `k`: the index in [`Ctx::swizzles`] of the swizzles that pass E0305
    /// and E0307 whatever the register type (the empty set where the rule depends on
    /// the type: `if`, `breakp`, `callnz`).
    src_swz: [u8; 4],
    /// [`Opcode::slots`].
    slots: u32,
    /// Per source `k` and register type: numbers below this pass the file, range and
    /// role rules silently (0: take the full check).
    src_lim: [[u16; 20]; 4],
    /// The same for the destination (also 0 for vs_3_0 outputs, which need a dcl).
    dst_lim: [u16; 20],
    /// Register types source `k` may be ([`src_role_ok`]).
    src_role: [u32; 4],
    /// Result-modifier bits allowed on the destination (E0302).
    dst_mods: u8,
    /// Per source modifier: the register types that may carry it on any source
    /// ([`src_mod_ok`] for source 0, which is at least as strict as the others).
    src_mods: [u32; 16],
}

/// Most distinct swizzle sets one version's opcodes need (see [`OpFacts::src_swz`]).
const SWIZZLE_SETS: usize = 8;

impl OpFacts {
    /// The facts of `op` in `v`; its swizzle sets are added to `sets` (index 0 is the
    /// empty set, also used should the sets ever run out).
    fn new(v: Version, op: Opcode, ctx: &Limits, sets: &mut Vec<[u64; 4]>) -> OpFacts {
        let class = op.slot_class();
        let tex = class == SlotClass::Texture;
        let ctrl = if op.has_comparison() {
            (1, 6)
        } else if op == Opcode::Tex && v.major >= 2 {
            (0, 2)
        } else {
            (0, 0)
        };
        let mut dst_mods = 0;
        if sat_ok(v, tex) {
            dst_mods |= result_modifier::SATURATE;
        }
        if pp_ok(v) {
            dst_mods |= result_modifier::PARTIAL_PRECISION;
        }
        if centroid_ok(v, tex) {
            dst_mods |= result_modifier::CENTROID;
        }
        let src_role: [u32; 4] = std::array::from_fn(|k| type_mask(|t| src_role_ok(v, op, k, t)));
        let dst_role = if op == Opcode::TexDepth {
            0
        } else {
            type_mask(|t| dst_role_ok(v, op, Register::new(t, 0)))
        };
        let vs3_out = if v.is_vertex() && v.major >= 3 {
            1 << RegisterType::Output as u32
        } else {
            0
        };
        let full = op_flags(op) & (flag::DECL | flag::FLOW | flag::SPECIFIC | flag::KILL) != 0;
        OpFacts {
            legal: op.is_legal(v),
            layout: op.layout(v),
            class,
            flags: op_flags(op),
            ctrl,
            slots: op.slots(v),
            src_lim: std::array::from_fn(|k| {
                std::array::from_fn(|t| {
                    if src_role[k] >> t & 1 != 0 {
                        ctx.src_lim[t] as u16
                    } else {
                        0
                    }
                })
            }),
            dst_lim: std::array::from_fn(|t| {
                if (dst_role & !vs3_out) >> t & 1 != 0 {
                    ctx.dst_lim[t] as u16
                } else {
                    0
                }
            }),
            src_role,
            src_mods: std::array::from_fn(|m| match SrcModifier::from_u8(m as u8) {
                Some(m) => type_mask(|t| src_mod_ok(v, op, 0, m, t)),
                None => 0,
            }),
            src_swz: std::array::from_fn(|k| {
                let bits = if !op_swizzle_rules(op) {
                    // `sets[1]`: the version's rule for any other opcode.
                    return 1;
                } else if !op.is_legal(v) || k >= op.layout(v).srcs as usize {
                    [0; 4]
                } else {
                    src_swizzles(v, op, k)
                };
                match sets.iter().position(|b| *b == bits) {
                    Some(i) => i as u8,
                    None if sets.len() < SWIZZLE_SETS => {
                        sets.push(bits);
                        (sets.len() - 1) as u8
                    }
                    None => 0,
                }
            }),
            texld_mask: matches!(op, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl) && v.major == 2,
            full,
            plain: op.is_legal(v) && !full,
            dst_mods,
        }
    }
}

/// The register-number limits of a version (see [`Ctx`]).
struct Limits {
    src_lim: [u32; 20],
    dst_lim: [u32; 20],
}

/// Everything the pass needs to know about a shader version, computed once per version.
struct Ctx {
    files: [Option<RegFile>; 20],
    limits: (u32, u32, u32),
    nest: (u32, u32, u32),
    /// Per register type: numbers below this pass the range checks silently (E0201-E0203,
    /// E0208); 0 where the type does not exist or always takes the full check.
    idx_lim: [u32; 20],
    /// As `idx_lim`, 0 where the type cannot be read.
    src_lim: [u32; 20],
    /// As `idx_lim`, 0 where the type cannot be written.
    dst_lim: [u32; 20],
    /// Register types whose reads need a `dcl`.
    needs_dcl: u32,
    /// The initial `State::quiet_read`: nothing declared, no temp written.
    quiet_read: [u32; 20],
    /// Per opcode, by [`Opcode::row`].
    ops: Vec<OpFacts>,
    /// Swizzle sets (bit `s`), indexed by [`OpFacts::src_swz`].
    swizzles: [[u64; 4]; SWIZZLE_SETS],
    /// ps_1_x.
    ps1: bool,
    /// ps_1_1-ps_1_3 (and ps_1_0).
    ps1_13: bool,
    /// ps_2_0 (dependent-read rules).
    ps20: bool,
    /// Temporaries must be written before they are read (E0204: before 3.0); also
    /// whether anything reads the written-temp masks at all.
    temp_rbw: bool,
    /// Arithmetic/texture slots are limited separately, or co-issue pairs matter (ps_1_x,
    /// ps_2_0): the split counters and the previous arithmetic instruction are kept.
    split_counts: bool,
    /// Relative addressing takes its own token.
    rel_tok: bool,
}

impl Ctx {
    fn new(v: Version) -> Ctx {
        let files: [Option<RegFile>; 20] =
            std::array::from_fn(|i| RegisterType::from_u8(i as u8).and_then(|t| reg_file(v, t)));
        let mut idx_lim = [0; 20];
        let mut src_lim = [0; 20];
        let mut dst_lim = [0; 20];
        for (i, f) in files.iter().enumerate() {
            let (Some(f), Some(t)) = (f, RegisterType::from_u8(i as u8)) else {
                continue;
            };
            // What `State::check_index` accepts without a finding.
            let lim = match t {
                RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4 => 0,
                RegisterType::Const if v.is_vertex() && v.is_software() => 8192,
                RegisterType::Const if v.is_vertex() => 256,
                _ => f.count,
            };
            idx_lim[i] = lim;
            src_lim[i] = if f.read { lim } else { 0 };
            dst_lim[i] = if f.write { lim } else { 0 };
        }
        let lims = Limits { src_lim, dst_lim };
        let mut sets = vec![[0u64; 4], src_swizzles(v, Opcode::Mov, 0)];
        let ops = OPCODES
            .iter()
            .map(|r| OpFacts::new(v, r.opcode, &lims, &mut sets))
            .collect();
        let mut swizzles = [[0u64; 4]; SWIZZLE_SETS];
        swizzles[..sets.len()].copy_from_slice(&sets);
        Ctx {
            files,
            limits: slot_limits(v),
            nest: nesting_limits(v),
            idx_lim,
            src_lim,
            dst_lim,
            needs_dcl: type_mask(|t| needs_dcl(v, t)),
            quiet_read: std::array::from_fn(|t| {
                let unwritten_temp = t == RegisterType::Temp as usize && v.major < 3;
                let undeclared = RegisterType::from_u8(t as u8).is_some_and(|t| needs_dcl(v, t));
                if unwritten_temp || undeclared {
                    0
                } else {
                    u32::MAX
                }
            }),
            ops,
            swizzles,
            ps1: v.is_pixel() && v.major == 1,
            ps1_13: v.is_pixel() && v.major == 1 && v.minor < 4,
            ps20: v.is_pixel() && v.code() == 0x0200,
            temp_rbw: v.major < 3,
            split_counts: (v.is_pixel() && v.major == 1)
                || slot_limits(v).1 != u32::MAX
                || slot_limits(v).2 != u32::MAX,
            rel_tok: v.has_relative_token(),
        }
    }

    /// The tables of the D3D9 versions, built on first use.
    fn cached(v: Version) -> Option<&'static Ctx> {
        static CACHE: [OnceLock<Ctx>; 20] = [const { OnceLock::new() }; 20];
        let m = match (v.major, v.minor) {
            (1, n @ 0..=4) => n as usize,
            (2, 0) => 5,
            (2, 1) => 6,
            (2, MINOR_SW) => 7,
            (3, 0) => 8,
            (3, MINOR_SW) => 9,
            _ => return None,
        };
        let i = m + if v.is_pixel() { 10 } else { 0 };
        Some(CACHE[i].get_or_init(|| Ctx::new(v)))
    }
}

/// Number of DWORDs after the instruction token (as [`Instruction::operand_len`]), from
/// the layout already looked up.
#[inline]
fn operand_len(ins: &Instruction, l: Layout, rel_tok: bool) -> usize {
    let count = ins.src_count as usize;
    let mut n = usize::from(l.decl) + l.imms as usize + usize::from(l.dst) + count;
    n += usize::from(ins.predicate.is_some());
    if rel_tok {
        let mut rels = usize::from(l.dst & ins.dst.rel.is_some());
        rels += usize::from(ins.predicate.is_some_and(|p| p.rel.is_some()));
        for (k, s) in ins.srcs.iter().enumerate() {
            rels += usize::from((k < count) & s.rel.is_some());
        }
        n += rels;
    }
    n
}

// ---------------------------------------------------------------------------------------
// The pass.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    IfBool,
    IfDyn,
    Loop,
    Rep,
}

const MAX_STACK: usize = 64;

struct State<'a> {
    v: Version,
    // Per-version tables.
    ctx: &'a Ctx,
    out: Vec<Finding>,
    item: usize,
    offset: usize,
    // Written component masks of temps (read-before-write).
    temp_written: [u8; 32],
    tex_loaded: u8,
    // Dependent-read level of each temp (ps_2_0), 0 = not from a texture read.
    dep_level: [u8; 32],
    // Declarations: masks per register.
    dcl_input: [u8; 16],
    dcl_output: [u8; 16],
    dcl_tex: [u8; 8],
    dcl_sampler: u32,
    dcl_misc: u8,
    // Per register type, bit n (n < 32): reading register n raises neither E0204 (a
    // temp never written) nor E0401 (not declared); the reads' view of `temp_written`
    // and the dcl tables.
    quiet_read: [u32; 20],
    // Semantics already declared: (is_output, usage, index) packed as bits.
    sem_in: [u16; 14],
    sem_out: [u16; 14],
    seen_exec: bool,
    // Flow control.
    stack: [Block; MAX_STACK],
    depth: usize,
    loops: u32,
    statics: u32,
    dynamics: u32,
    static_flow_count: u32,
    labels_defined: [u64; 32],
    labels_called: [u64; 32],
    any_call: bool,
    // A label instruction was met (SM2: rerun with the subroutines' writes).
    label_seen: bool,
    main_ended: bool,
    in_sub: bool,
    // ps_1_x.
    seen_arith: bool,
    phase_seen: bool,
    pad_expect: Option<(Opcode, u16, u16, u8)>, // (pad opcode, next dst, src, remaining)
    prev_arith: Option<(u8, bool)>,             // (dst mask, was co-issued)
    // Counts.
    slots: u32,
    arith: u32,
    tex: u32,
    last_item: usize,
    last_offset: usize,
}

/// An instruction's mnemonic, looked up only when a message is actually formatted.
#[derive(Clone, Copy)]
struct Mn(Opcode, Version);

impl std::fmt::Display for Mn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.mnemonic(self.1))
    }
}

/// Validates a shader against the D3D9 runtime's rules for its version.
///
/// Returns every finding in stream order (whole-shader findings last); an empty vector
/// means the runtime accepts the shader.
pub fn validate(shader: &Shader) -> Vec<Finding> {
    let v = shader.version;
    let owned;
    let ctx = match Ctx::cached(v) {
        Some(c) => c,
        None => {
            owned = Ctx::new(v);
            &owned
        }
    };
    let mut s = State::new(v, ctx);
    s.run(shader);
    // Subroutines follow the main program in the stream, so a temp a subroutine writes
    // may be read lexically earlier (after the call). With labels present, every temp
    // written from the first label on counts as written from the start. Only SM2 reads
    // these masks before writing them (E0204 stops at 3.0; the ps_2_0 dependent-read
    // rule), and labels are rare: when the pass met one, it runs again with the masks
    // preset.
    if v.major == 2 && s.label_seen {
        s = State::new(v, ctx);
        s.subroutine_writes(shader);
        s.run(shader);
    }
    s.finish();
    s.out
}

impl<'a> State<'a> {
    fn new(v: Version, ctx: &'a Ctx) -> State<'a> {
        State {
            v,
            ctx,
            out: Vec::new(),
            item: 0,
            offset: 1,
            temp_written: [0; 32],
            tex_loaded: 0,
            dep_level: [0; 32],
            dcl_input: [0; 16],
            dcl_output: [0; 16],
            dcl_tex: [0; 8],
            dcl_sampler: 0,
            dcl_misc: 0,
            quiet_read: ctx.quiet_read,
            sem_in: [0; 14],
            sem_out: [0; 14],
            seen_exec: false,
            stack: [Block::IfBool; MAX_STACK],
            depth: 0,
            loops: 0,
            statics: 0,
            dynamics: 0,
            static_flow_count: 0,
            labels_defined: [0; 32],
            labels_called: [0; 32],
            any_call: false,
            label_seen: false,
            main_ended: false,
            in_sub: false,
            seen_arith: false,
            phase_seen: false,
            pad_expect: None,
            prev_arith: None,
            slots: 0,
            arith: 0,
            tex: 0,
            last_item: 0,
            last_offset: 1,
        }
    }

    /// Marks every temp written from the first label on as written.
    fn subroutine_writes(&mut self, shader: &Shader) {
        let first_label = shader
            .items
            .iter()
            .position(|item| matches!(item, Item::Instruction(ins) if ins.opcode == Opcode::Label));
        if let Some(first) = first_label {
            for item in &shader.items[first..] {
                if let Item::Instruction(ins) = item {
                    if ins.dst.reg.kind == RegisterType::Temp
                        && ins.dst.reg.num < 32
                        && self.ctx.ops[ins.opcode.row()].layout.dst
                    {
                        let n = ins.dst.reg.num as usize;
                        self.temp_written[n] |= ins.dst.mask;
                        self.temp_now_written(n);
                    }
                }
            }
        }
    }

    /// The pass over the items (whole-shader findings are left to [`State::finish`]).
    fn run(&mut self, shader: &Shader) {
        let ctx = self.ctx;
        let (mut last_item, mut last_offset) = (self.last_item, self.last_offset);
        for (i, item) in shader.items.iter().enumerate() {
            match item {
                Item::Comment(c) => {
                    self.offset += 1 + c.len();
                }
                Item::Instruction(ins) => {
                    self.item = i;
                    last_item = i;
                    last_offset = self.offset;
                    let f = &ctx.ops[ins.opcode.row()];
                    let len = self.instruction(ins, f);
                    self.offset += 1 + len;
                }
            }
        }
        self.last_item = last_item;
        self.last_offset = last_offset;
    }
}

impl State<'_> {
    #[cold]
    #[inline(never)]
    fn finding(&mut self, severity: Severity, code: &'static str, msg: std::fmt::Arguments<'_>) {
        use std::fmt::Write;
        let source = rule_source(code);
        let mut message = String::with_capacity(112 + source.len());
        let _ = message.write_fmt(msg);
        message.push_str(" [");
        message.push_str(source);
        message.push(']');
        self.out.push(Finding {
            code,
            severity,
            item: self.item,
            offset: self.offset,
            message,
        });
    }

    #[cold]
    #[inline(never)]
    fn err(&mut self, code: &'static str, msg: std::fmt::Arguments<'_>) {
        self.finding(Severity::Error, code, msg);
    }

    #[cold]
    #[inline(never)]
    fn warn(&mut self, code: &'static str, msg: std::fmt::Arguments<'_>) {
        self.finding(Severity::Warning, code, msg);
    }

    #[inline]
    fn file(&self, t: RegisterType) -> Option<RegFile> {
        self.ctx.files[t as usize]
    }

    /// `r` as the listing spells it (for messages).
    fn name(&self, r: Register) -> RegName {
        RegName(self.v, r)
    }

    /// One instruction. Plain instructions (no declaration, flow control, co-issue,
    /// predicate, controls or instruction-specific rule; not after the main `ret`) take
    /// the short path; everything else [`State::instruction_full`].
    /// Returns the instruction's operand length (as [`Instruction::operand_len`]).
    #[inline]
    fn instruction(&mut self, ins: &Instruction, f: &OpFacts) -> usize {
        let c = ins.controls;
        let plain = f.plain
            & (c.wrapping_sub(f.ctrl.0) <= f.ctrl.1 - f.ctrl.0)
            & !ins.coissue
            & ins.predicate.is_none()
            & !self.main_ended;
        if !plain {
            self.instruction_full(ins, f);
            return operand_len(ins, f.layout, self.ctx.rel_tok);
        }
        if f.flags & flag::NOT_EXEC == 0 {
            self.seen_exec = true;
        }
        if self.ctx.ps1 {
            self.ps1(ins, f.class);
        }
        let mut reads_rel_al = false;
        let mut rels = 0;
        for (k, src) in ins.src().iter().enumerate() {
            match src.rel {
                None => self.check_src(ins, f, k, src),
                Some(rel) => {
                    rels += 1;
                    reads_rel_al |= rel.reg.kind == RegisterType::Loop;
                    self.check_src_full(ins, f, k, src);
                }
            }
        }
        if f.layout.dst {
            match ins.dst.rel {
                None => self.check_dst(ins, f, &ins.dst),
                Some(rel) => {
                    rels += 1;
                    reads_rel_al |= rel.reg.kind == RegisterType::Loop;
                    self.check_dst_full(ins, f, &ins.dst);
                }
            }
        }
        if reads_rel_al && self.loops == 0 {
            self.err("E0207", format_args!("aL is used outside a loop"));
        }
        if f.texld_mask && ins.dst.mask != 0xF {
            self.specific(ins);
        }
        if self.ctx.ps20 {
            self.dependent_reads(ins, f.class);
        }
        self.mark_written(ins, f);
        self.count(ins, f);
        // No predicate here; relative-address tokens only from SM2 on.
        let l = f.layout;
        usize::from(l.decl)
            + l.imms as usize
            + usize::from(l.dst)
            + ins.src().len()
            + if self.ctx.rel_tok { rels } else { 0 }
    }

    #[inline(never)]
    fn instruction_full(&mut self, ins: &Instruction, f: &OpFacts) {
        let v = self.v;
        let op = ins.opcode;
        self.label_seen |= op == Opcode::Label;
        let mn = Mn(op, v);
        if !f.legal {
            self.err("E0101", format_args!("{mn} is not an instruction of {v}"));
            return;
        }
        let layout = f.layout;
        let is_decl = f.flags & flag::DECL != 0;
        let class = f.class;

        // Declarations precede executable instructions.
        if is_decl {
            if self.seen_exec {
                self.err(
                    "E0405",
                    format_args!("{mn} after the first executable instruction"),
                );
            }
        } else if f.flags & flag::NOT_EXEC == 0 {
            self.seen_exec = true;
        }

        if ins.controls < f.ctrl.0 || ins.controls > f.ctrl.1 {
            self.check_controls(ins);
        }
        if ins.coissue || ins.predicate.is_some() {
            self.check_coissue_predicate(ins, class);
        }

        match op {
            _ if !is_decl => {}
            Opcode::Dcl => {
                self.dcl(ins);
                return;
            }
            Opcode::Def | Opcode::DefI | Opcode::DefB => {
                let want = match op {
                    Opcode::Def => RegisterType::Const,
                    Opcode::DefI => RegisterType::ConstInt,
                    _ => RegisterType::ConstBool,
                };
                let r = ins.dst.reg;
                if r.kind != want && !(op == Opcode::Def && is_const_float(r.kind)) {
                    self.err(
                        "E0104",
                        format_args!(
                            "{mn} must define a {} register, not {}",
                            match want {
                                RegisterType::Const => "c#",
                                RegisterType::ConstInt => "i#",
                                _ => "b#",
                            },
                            self.name(r)
                        ),
                    );
                } else {
                    self.check_index(r, false);
                }
                self.def_dst_plain(ins);
                return;
            }
            _ => {}
        }

        // Subroutine structure: after the main program's ret, only labelled code.
        if self.main_ended && !self.in_sub && op != Opcode::Label {
            self.err(
                "E0506",
                format_args!(
                    "{mn} after the main program's ret is not inside a labelled subroutine"
                ),
            );
            self.in_sub = true;
        }

        if f.flags & flag::FLOW != 0 {
            self.flow(ins);
        }
        if self.ctx.ps1 {
            self.ps1(ins, class);
        }

        // Operands.
        let mut reads_rel_al = false;
        for (k, src) in ins.src().iter().enumerate() {
            self.check_src(ins, f, k, src);
            if src.rel.is_some_and(|r| r.reg.kind == RegisterType::Loop) {
                reads_rel_al = true;
            }
        }
        if let Some(p) = &ins.predicate {
            if p.reg.kind != RegisterType::Predicate {
                self.err(
                    "E0104",
                    format_args!("the predicate of {mn} must be p0, not {}", self.name(p.reg)),
                );
            }
            if !matches!(p.modifier, SrcModifier::None | SrcModifier::Not) {
                self.err(
                    "E0301",
                    format_args!("the predicate of {mn} takes only the ! modifier"),
                );
            }
        }
        if layout.dst {
            if op == Opcode::TexKill {
                // texkill's operand is read, not written.
                let as_src = SrcParam {
                    reg: ins.dst.reg,
                    rel: ins.dst.rel,
                    swizzle: crate::ir::SWIZZLE_IDENTITY,
                    modifier: SrcModifier::None,
                };
                self.check_index(ins.dst.reg, false);
                self.check_read(ins, &as_src);
                self.check_dst_mods(ins, &ins.dst);
            } else {
                self.check_dst(ins, f, &ins.dst);
            }
            if ins
                .dst
                .rel
                .is_some_and(|r| r.reg.kind == RegisterType::Loop)
            {
                reads_rel_al = true;
            }
        }
        if reads_rel_al && self.loops == 0 {
            self.err("E0207", format_args!("aL is used outside a loop"));
        }
        if f.flags & (flag::SPECIFIC | flag::TEXLD) != 0 {
            self.specific(ins);
        }
        if self.ctx.ps20 {
            self.dependent_reads(ins, f.class);
        }
        self.mark_written(ins, f);
        self.count(ins, f);
    }

    fn check_controls(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let c = ins.controls;
        if op.has_comparison() {
            if !(1..=6).contains(&c) {
                self.err(
                    "E0102",
                    format_args!("{mn} has controls {c}, not a comparison (1 gt .. 6 le)"),
                );
            }
        } else if op == Opcode::Tex && v.major >= 2 {
            if c > 2 {
                self.err(
                    "E0103",
                    format_args!("texld controls {c} is neither texldp (1) nor texldb (2)"),
                );
            }
        } else if c != 0 {
            self.err(
                "E0103",
                format_args!("{mn} does not take controls (field is {c})"),
            );
        }
    }

    fn check_coissue_predicate(&mut self, ins: &Instruction, class: SlotClass) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        if ins.coissue {
            let ps1 = v.is_pixel() && v.major == 1;
            if !ps1 || class != SlotClass::Arithmetic {
                self.err(
                    "E0304",
                    format_args!("{mn} cannot be co-issued (only ps_1_x arithmetic instructions)"),
                );
            } else {
                match self.prev_arith {
                    Some((mask, false)) => {
                        let m = ins.dst.mask;
                        let ok = m & mask == 0 && (m == 0x8 || mask == 0x8);
                        if !ok {
                            self.err(
                                "E0304",
                                format_args!(
                                    "co-issued pair must write colour and alpha separately (masks 0x{mask:x} and 0x{m:x})"
                                ),
                            );
                        }
                    }
                    _ => self.err(
                        "E0304",
                        format_args!(
                            "co-issued {mn} does not follow a non-co-issued arithmetic instruction"
                        ),
                    ),
                }
            }
        }
        if ins.predicate.is_some() {
            let flow = matches!(
                op,
                Opcode::If
                    | Opcode::IfC
                    | Opcode::Else
                    | Opcode::EndIf
                    | Opcode::Loop
                    | Opcode::EndLoop
                    | Opcode::Rep
                    | Opcode::EndRep
                    | Opcode::Call
                    | Opcode::CallNz
                    | Opcode::Ret
                    | Opcode::Label
                    | Opcode::BreakP
                    | Opcode::BreakC
                    | Opcode::Phase
            );
            if v.code() < 0x0201 || flow || class == SlotClass::None {
                self.err("E0309", format_args!("{mn} cannot be predicated in {v}"));
            }
        }
    }

    #[inline]
    fn check_index(&mut self, r: Register, write: bool) {
        if (r.num as u32) < self.ctx.idx_lim[r.kind as usize] {
            return;
        }
        self.check_index_full(r, write);
    }

    #[inline(never)]
    fn check_index_full(&mut self, r: Register, write: bool) {
        let v = self.v;
        let Some(f) = self.file(r.kind) else {
            let code = if write { "E0202" } else { "E0201" };
            self.err(
                code,
                format_args!(
                    "{} ({}) does not exist in {v}",
                    self.name(r),
                    r.kind.d3dspr_name(v)
                ),
            );
            return;
        };
        let mut n = r.num as u32;
        if matches!(
            r.kind,
            RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4
        ) {
            n += 2048 * (r.kind as u32 - RegisterType::Const2 as u32 + 1);
        }
        let count = if is_const_float(r.kind) && v.is_vertex() {
            8192
        } else {
            f.count
        };
        if n >= count {
            self.err(
                "E0203",
                format_args!("{} is out of range in {v} (has {count})", self.name(r)),
            );
        } else if is_const_float(r.kind) && v.is_vertex() && !v.is_software() && n >= 256 {
            let name = self.name(r);
            self.warn(
                "E0208",
                format_args!("{name} needs a device with software vertex processing (hardware {v} has 256 constants)"),
            );
        }
    }

    #[inline]
    fn check_src(&mut self, ins: &Instruction, f: &OpFacts, k: usize, src: &SrcParam) {
        let r = src.reg;
        let t = r.kind as usize;
        let s = src.swizzle as usize;
        let quiet = (r.num < f.src_lim[k][t])
            & src.rel.is_none()
            & (f.src_mods[src.modifier as usize] >> t & 1 != 0)
            & (self.ctx.swizzles[f.src_swz[k] as usize][s >> 6] >> (s & 63) & 1 != 0)
            & (f.flags & flag::SGN == 0);
        if quiet {
            self.check_read(ins, src);
        } else {
            self.check_src_full(ins, f, k, src);
        }
    }

    #[inline(never)]
    fn check_src_full(&mut self, ins: &Instruction, f: &OpFacts, k: usize, src: &SrcParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let r = src.reg;
        if (r.num as u32) >= self.ctx.src_lim[r.kind as usize] {
            self.check_src_file(r);
        }
        if src.rel.is_some() {
            self.check_src_rel(src);
        }
        // Operand role checks.
        if f.src_role[k] & (1 << r.kind as u32) == 0 {
            self.err(
                "E0104",
                format_args!("{mn} cannot take {} as source {}", self.name(r), k),
            );
        }
        let s = src.swizzle as usize;
        if !(f.src_mods[src.modifier as usize] >> r.kind as u32 & 1 != 0
            && self.ctx.swizzles[f.src_swz[k] as usize][s >> 6] >> (s & 63) & 1 != 0)
        {
            self.check_src_mods(ins, k, src);
        }
        // sgn's second and third operands are scratch temporaries, not reads (sgn - vs).
        if op == Opcode::Sgn && k > 0 {
            if r.kind != RegisterType::Temp {
                self.err(
                    "E0104",
                    format_args!("sgn source {k} must be a scratch temporary register"),
                );
            }
            return;
        }
        self.check_read(ins, src);
    }

    #[inline(never)]
    fn check_src_file(&mut self, r: Register) {
        let v = self.v;
        match self.file(r.kind) {
            Some(f) if f.read => self.check_index(r, false),
            Some(_) => {
                self.err(
                    "E0201",
                    format_args!("{} cannot be read in {v}", self.name(r)),
                );
            }
            None => self.check_index(r, false),
        }
    }

    #[inline(never)]
    fn check_src_rel(&mut self, src: &SrcParam) {
        let v = self.v;
        let r = src.reg;
        // Relative addressing.
        if let Some(rel) = src.rel {
            let ok_reg = match rel.reg.kind {
                RegisterType::AddrOrTexture => v.is_vertex(),
                RegisterType::Loop => v.major >= 2,
                _ => false,
            };
            let ok_target = match (v.kind, r.kind) {
                (_, t) if is_const_float(t) => v.is_vertex() || v.major >= 3,
                (ShaderKind::Vertex, RegisterType::Input) => v.major >= 3,
                (ShaderKind::Pixel, RegisterType::Input) => v.major >= 3,
                _ => false,
            };
            let al_only = v.is_pixel() || r.kind == RegisterType::Input;
            if !ok_reg
                || !ok_target
                || (al_only && rel.reg.kind != RegisterType::Loop)
                || (v.major == 1 && rel.component() != 0)
                // aL is a scalar: Microsoft's assembler writes its token with the identity
                // swizzle and refuses `aL.x` ("no swizzles allowed").
                || (rel.reg.kind == RegisterType::Loop && rel.swizzle != crate::ir::SWIZZLE_IDENTITY)
            {
                self.err(
                    "E0206",
                    format_args!(
                        "{}[{}] relative addressing is not allowed in {v}",
                        self.name(r),
                        self.name(rel.reg)
                    ),
                );
            } else {
                self.check_index(rel.reg, false);
            }
        }
    }

    fn check_src_mods(&mut self, ins: &Instruction, k: usize, src: &SrcParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let m = src.modifier;
        let r = src.reg.kind;
        let tex_coord = is_tex_coord(v, op, k);
        if !src_mod_ok(v, op, k, m, r) {
            self.err(
                "E0301",
                format_args!(
                    "source modifier {:?} is not allowed on {} of {mn} in {v}",
                    m,
                    self.name(src.reg)
                ),
            );
        }
        let needs_replicate = needs_replicate(v, op, k, r, src.swizzle);
        if needs_replicate && !replicate(src.swizzle) {
            self.err(
                "E0305",
                format_args!("source {k} of {mn} needs a replicate swizzle (.x, .y, .z or .w)"),
            );
        }
        // Swizzles by version.
        if tex_coord && src.swizzle != 0xE4 {
            let s = src.swizzle;
            self.err(
                "E0307",
                format_args!("source {k} of {mn} takes no swizzle in {v} (has 0x{s:02x})"),
            );
        } else if v.is_pixel() && v.code() <= 0x0200 && !needs_replicate {
            let s = src.swizzle;
            if !swizzle_ok(v, op, k, needs_replicate, s) {
                self.err(
                    "E0307",
                    format_args!("swizzle 0x{s:02x} on source {k} of {mn} is not supported in {v}"),
                );
            }
        }
    }

    #[inline]
    fn check_read(&mut self, ins: &Instruction, src: &SrcParam) {
        let t = src.reg.kind as u32;
        let n = src.reg.num as u32;
        let quiet = if n < 32 {
            self.quiet_read[t as usize] >> n & 1 != 0
        } else {
            // Only dcl'd types have a rule for high numbers (none with relative addressing).
            (self.ctx.needs_dcl >> t & 1 == 0) | src.rel.is_some()
        };
        if !quiet {
            self.check_read_full(ins, src);
        }
    }

    /// Keeps `quiet_read` in step with a change of `temp_written[n]` (n < 32).
    #[inline]
    fn temp_now_written(&mut self, n: usize) {
        if self.temp_written[n] != 0 {
            self.quiet_read[RegisterType::Temp as usize] |= 1 << n;
        }
    }

    #[inline(never)]
    fn check_read_full(&mut self, ins: &Instruction, src: &SrcParam) {
        let r = src.reg;
        let n = r.num as usize;
        if r.kind == RegisterType::Temp {
            // SM1/SM2 only: the Temporary Register pages are those of vs_1_1/vs_2_0 and
            // ps_2_0; published vs_3_0 overrides read never-written temps.
            if n < 32 && self.v.major < 3 && self.temp_written[n] == 0 {
                let mn = Mn(ins.opcode, self.v);
                self.err(
                    "E0204",
                    format_args!("{mn} reads r{n}, which no earlier instruction wrote"),
                );
                // Report once per register.
                self.temp_written[n] = 0x80;
                self.temp_now_written(n);
            }
            // Temporaries need no dcl.
            return;
        }
        // Declarations.
        if self.ctx.needs_dcl & (1 << r.kind as u32) != 0 && src.rel.is_none() {
            let declared = match r.kind {
                RegisterType::Input => n < 16 && self.dcl_input[n] != 0,
                RegisterType::AddrOrTexture => n < 8 && self.dcl_tex[n] != 0,
                RegisterType::Sampler => n < 32 && self.dcl_sampler & (1 << n) != 0,
                RegisterType::MiscType => n < 8 && self.dcl_misc & (1 << n) != 0,
                _ => true,
            };
            if !declared {
                let mn = Mn(ins.opcode, self.v);
                if r.kind == RegisterType::MiscType {
                    self.warn(
                        "E0408",
                        format_args!("{mn} reads {} without a dcl", self.name(r)),
                    );
                } else {
                    self.err(
                        "E0401",
                        format_args!("{mn} uses {} without a dcl", self.name(r)),
                    );
                }
            }
        }
    }

    #[inline]
    fn check_dst(&mut self, ins: &Instruction, f: &OpFacts, d: &DstParam) {
        let t = d.reg.kind as usize;
        let quiet = (d.reg.num < f.dst_lim[t])
            & d.rel.is_none()
            & (d.modifiers & !f.dst_mods == 0)
            & (d.shift == 0)
            & (d.mask != 0)
            & !(self.ctx.ps1_13 & !matches!(d.mask, 0xF | 0x7 | 0x8));
        if !quiet {
            self.check_dst_full(ins, f, d);
        }
    }

    #[inline(never)]
    fn check_dst_full(&mut self, ins: &Instruction, f: &OpFacts, d: &DstParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let r = d.reg;
        if (r.num as u32) >= self.ctx.dst_lim[r.kind as usize] {
            self.check_dst_file(ins, r);
        }
        if d.rel.is_some() {
            self.check_dst_rel(d);
        }
        // Role of the destination.
        let role_ok = dst_role_ok(v, op, r);
        if !role_ok {
            self.err("E0104", format_args!("{mn} cannot write {}", self.name(r)));
        }
        // In vs_3_0 outputs must be declared.
        if v.is_vertex() && v.major >= 3 && r.kind == RegisterType::Output && d.rel.is_none() {
            let n = r.num as usize;
            if n >= 16 || self.dcl_output[n] == 0 {
                self.err(
                    "E0401",
                    format_args!("{mn} writes {} without a dcl", self.name(r)),
                );
            }
        }
        if d.modifiers & !f.dst_mods != 0
            || d.shift != 0
            || d.mask == 0
            || (self.ctx.ps1_13 && !matches!(d.mask, 0xF | 0x7 | 0x8))
        {
            self.check_dst_mods(ins, d);
        }
    }

    #[inline(never)]
    fn check_dst_file(&mut self, ins: &Instruction, r: Register) {
        let v = self.v;
        let mn = Mn(ins.opcode, v);
        match self.file(r.kind) {
            Some(f) if f.write => self.check_index(r, true),
            Some(_) => {
                self.err(
                    "E0205",
                    format_args!("{mn} writes {}, which is read-only in {v}", self.name(r)),
                );
            }
            None => self.check_index(r, true),
        }
    }

    #[inline(never)]
    fn check_dst_rel(&mut self, d: &DstParam) {
        let v = self.v;
        let r = d.reg;
        if let Some(rel) = d.rel {
            let ok = v.is_vertex()
                && v.major >= 3
                && r.kind == RegisterType::Output
                && rel.reg.kind == RegisterType::Loop
                && rel.swizzle == crate::ir::SWIZZLE_IDENTITY;
            if !ok {
                self.err(
                    "E0206",
                    format_args!(
                        "relative addressing of the destination {} is not allowed in {v}",
                        self.name(r)
                    ),
                );
            }
        }
    }

    fn check_dst_mods(&mut self, ins: &Instruction, d: &DstParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let m = d.modifiers;
        let tex = op.slot_class() == SlotClass::Texture;
        if m & result_modifier::SATURATE != 0 && !sat_ok(v, tex) {
            self.err("E0302", format_args!("_sat is not allowed on {mn} in {v}"));
        }
        if m & result_modifier::PARTIAL_PRECISION != 0 && !pp_ok(v) {
            self.err("E0302", format_args!("_pp is not allowed in {v}"));
        }
        if m & result_modifier::CENTROID != 0 && !centroid_ok(v, tex) {
            self.err(
                "E0302",
                format_args!("_centroid is not allowed on {mn} in {v}"),
            );
        }
        if m & !7 != 0 {
            self.err(
                "E0302",
                format_args!("unknown result modifier bits 0x{m:x}"),
            );
        }
        if d.shift != 0 {
            let s = d.shift_value();
            // Modifiers for ps_1_X: _x2 _x4 _d2 in 1_1-1_4, _x8 _d4 _d8 in 1_4; never on
            // texture address instructions.
            let ok = v.is_pixel()
                && v.major == 1
                && !tex
                && match s {
                    1 | 2 | -1 => true,
                    3 | -2 | -3 => v.minor == 4,
                    _ => false,
                };
            if !ok {
                self.err(
                    "E0303",
                    format_args!("result shift {s} is not allowed on {mn} in {v}"),
                );
            }
        }
        if d.mask == 0 {
            self.err("E0306", format_args!("{mn} has an empty write mask"));
            return;
        }
        // ps_1_1-1_3 write masks: .rgba, .rgb, .a (also .b for co-issue forms is not documented).
        if v.is_pixel() && v.major == 1 && v.minor < 4 && !matches!(d.mask, 0xF | 0x7 | 0x8) {
            self.err(
                "E0306",
                format_args!(
                    "write mask 0x{:x} on {mn}: ps_1_1-ps_1_3 allow only .rgba, .rgb, .a",
                    d.mask
                ),
            );
        }
    }

    /// Instruction-specific operand constraints.
    fn specific(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let mask = ins.dst.mask;
        let srcs = ins.src();
        match op {
            Opcode::SinCos => {
                if !matches!(mask, 1..=3) {
                    self.err(
                        "E0306",
                        format_args!("sincos writes .x, .y or .xy only (mask 0x{mask:x})"),
                    );
                }
                if !replicate(srcs[0].swizzle) {
                    self.err(
                        "E0305",
                        format_args!("source 0 of sincos needs a replicate swizzle"),
                    );
                }
                if srcs.len() == 3 {
                    for (k, s) in srcs.iter().enumerate().skip(1) {
                        if !is_const_float(s.reg.kind) {
                            self.err(
                                "E0104",
                                format_args!("sincos source {k} must be a constant register"),
                            );
                        }
                    }
                }
            }
            Opcode::Crs => {
                if mask & 8 != 0 || mask == 0 {
                    self.err(
                        "E0306",
                        format_args!("crs writes a subset of .xyz (mask 0x{mask:x})"),
                    );
                }
                if srcs.iter().any(|s| s.reg == ins.dst.reg) {
                    self.err(
                        "E0308",
                        format_args!(
                            "crs destination {} is also a source",
                            self.name(ins.dst.reg)
                        ),
                    );
                }
            }
            Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2 => {
                let want = match op {
                    Opcode::M3x2 => 0x3,
                    Opcode::M3x3 | Opcode::M4x3 => 0x7,
                    _ => 0xF,
                };
                if mask != want {
                    self.err(
                        "E0306",
                        format_args!("{mn} must write mask 0x{want:x} (has 0x{mask:x})"),
                    );
                }
                let s1 = &srcs[1];
                if s1.swizzle != 0xE4 || s1.modifier != SrcModifier::None {
                    self.err(
                        "E0308",
                        format_args!("{mn}: the matrix source takes no swizzle or modifier"),
                    );
                }
                if srcs[0].reg == ins.dst.reg && ins.dst.reg.kind == RegisterType::Temp {
                    self.err(
                        "E0308",
                        format_args!("{mn}: destination cannot be the vector source"),
                    );
                }
            }
            Opcode::Nrm if ins.dst.reg.kind != RegisterType::Temp || srcs[0].reg == ins.dst.reg => {
                // nrm - vs/ps: "The dest and src registers cannot be the same. The dest
                // register must be a temporary register."
                self.err(
                    "E0308",
                    format_args!("nrm writes a temporary other than its source"),
                );
            }
            Opcode::Bem if mask != 0x3 => {
                self.err(
                    "E0306",
                    format_args!("bem writes .rg only (mask 0x{mask:x})"),
                );
            }
            Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl
                if v.major >= 2 && v.major == 2 && mask != 0xF =>
            {
                self.err(
                    "E0306",
                    format_args!("{mn} in {v} writes the full .xyzw mask (mask 0x{mask:x})"),
                );
            }
            _ => {}
        }
    }

    /// `def`/`defi`/`defb` define whole registers: full mask, no modifier, shift or
    /// relative addressing (Microsoft's assembler writes nothing else; the listing
    /// cannot show anything else).
    fn def_dst_plain(&mut self, ins: &Instruction) {
        let d = &ins.dst;
        let mn = Mn(ins.opcode, self.v);
        if d.mask != 0xF {
            self.err(
                "E0306",
                format_args!("{mn} must write the whole register (mask 0x{:x})", d.mask),
            );
        }
        if d.modifiers != 0 {
            self.err("E0302", format_args!("{mn} takes no result modifier"));
        }
        if d.shift != 0 {
            self.err("E0303", format_args!("{mn} takes no result shift"));
        }
        if d.rel.is_some() {
            self.err(
                "E0206",
                format_args!("{mn} cannot address its register relatively"),
            );
        }
    }

    fn dcl(&mut self, ins: &Instruction) {
        let v = self.v;
        let r = ins.dst.reg;
        let n = r.num as usize;
        let d = ins.decl;
        let mask = ins.dst.mask;
        let name = RegName(self.v, r);
        // Centroid/pp on a dcl is a ps_2_0+ form.
        let m = ins.dst.modifiers;
        if m & !(result_modifier::CENTROID | result_modifier::PARTIAL_PRECISION) != 0
            || (m != 0 && !(v.is_pixel() && v.major >= 2))
        {
            self.err(
                "E0302",
                format_args!("modifier 0x{m:x} not allowed on dcl of {name} in {v}"),
            );
        }
        if ins.dst.shift != 0 {
            self.err(
                "E0303",
                format_args!("a result shift is not allowed on dcl of {name}"),
            );
        }
        if mask == 0 {
            self.err(
                "E0306",
                format_args!("dcl of {name} has an empty write mask"),
            );
        }
        if r.kind != RegisterType::Sampler && d.sampler_type_raw() != 0 {
            self.err(
                "E0402",
                format_args!(
                    "dcl of {name} carries a sampler texture type (token 0x{:08x})",
                    d.0
                ),
            );
        }
        let usage_form = match (v.kind, r.kind) {
            (ShaderKind::Vertex, RegisterType::Input) => true,
            (ShaderKind::Vertex, RegisterType::Output) if v.major >= 3 => true,
            (ShaderKind::Pixel, RegisterType::Input) if v.major >= 3 => true,
            (ShaderKind::Pixel, RegisterType::Input | RegisterType::AddrOrTexture)
                if v.major == 2 =>
            {
                false
            }
            (ShaderKind::Vertex, RegisterType::Sampler) if v.major >= 3 => {
                self.dcl_sampler(ins);
                return;
            }
            (ShaderKind::Pixel, RegisterType::Sampler) if v.major >= 2 => {
                self.dcl_sampler(ins);
                return;
            }
            (ShaderKind::Pixel, RegisterType::MiscType) if v.major >= 3 && n < 2 => {
                if d.0 != 0x8000_0000 {
                    self.err(
                        "E0402",
                        format_args!("dcl of {name} takes no usage (token 0x{:08x})", d.0),
                    );
                }
                if self.dcl_misc & (1 << n) != 0 {
                    self.err("E0403", format_args!("{name} declared twice"));
                }
                self.dcl_misc |= 1 << n;
                self.quiet_read[RegisterType::MiscType as usize] |= 1 << n;
                return;
            }
            _ => {
                self.err("E0402", format_args!("{name} cannot be declared in {v}"));
                return;
            }
        };
        self.check_index(r, false);
        let mut same_semantic = false;
        if usage_form {
            let Some(u) = d.usage_kind() else {
                self.err(
                    "E0406",
                    format_args!(
                        "dcl of {name}: usage {} is not a D3DDECLUSAGE",
                        d.usage_raw()
                    ),
                );
                return;
            };
            let idx = d.usage_index();
            let output = r.kind == RegisterType::Output;
            let sem = if output {
                &mut self.sem_out
            } else {
                &mut self.sem_in
            };
            let bit = 1u16 << idx;
            let dup_sem = sem[u as usize] & bit != 0;
            same_semantic = dup_sem;
            sem[u as usize] |= bit;
            if dup_sem && !(output || v.is_pixel()) {
                self.err(
                    "E0403",
                    format_args!("semantic {}{idx} declared twice", u.name()),
                );
            }
        } else if v.is_pixel() && (d.0 & 0x7FFF_FFFF) != 0 {
            self.err(
                "E0402",
                format_args!("dcl of {name} in {v} takes no usage (token 0x{:08x})", d.0),
            );
        }
        let (table, ty): (&mut [u8], RegisterType) = match r.kind {
            RegisterType::Input => (&mut self.dcl_input, RegisterType::Input),
            RegisterType::Output => (&mut self.dcl_output, RegisterType::Output),
            _ => (&mut self.dcl_tex, RegisterType::AddrOrTexture),
        };
        if n < table.len() {
            let prev = table[n];
            table[n] |= mask;
            if table[n] != 0 {
                self.quiet_read[ty as usize] |= 1 << n;
            }
            let splittable = (r.kind == RegisterType::Output && v.is_vertex() && v.major >= 3)
                || (r.kind == RegisterType::Input && v.is_pixel() && v.major >= 3);
            if prev != 0 && !splittable {
                self.err("E0403", format_args!("{name} declared twice"));
            } else if prev & mask != 0 && r.kind == RegisterType::Output && !same_semantic {
                self.warn(
                    "E0407",
                    format_args!("{name} declared again with an overlapping mask"),
                );
            } else if prev & mask != 0 {
                self.err("E0403", format_args!("{name} declared twice"));
            }
        }
    }

    fn dcl_sampler(&mut self, ins: &Instruction) {
        let v = self.v;
        let r = ins.dst.reg;
        let n = r.num;
        let name = RegName(self.v, r);
        self.check_index(r, false);
        if ins.dst.modifiers != 0 && !(v.is_pixel() && v.major >= 3) {
            self.err(
                "E0302",
                format_args!("sampler dcl of {name} takes no modifier in {v}"),
            );
        }
        if ins.decl.0 & 0x000F_001F != 0 {
            self.err(
                "E0402",
                format_args!(
                    "sampler dcl of {name} carries a usage (token 0x{:08x})",
                    ins.decl.0
                ),
            );
        }
        let ty = ins.decl.sampler_type();
        // 1d is defined by D3DSAMPLER_TEXTURE_TYPE though not exposed; accepted.
        let ok = matches!(
            ty,
            Some(SamplerType::Tex1D | SamplerType::Tex2D | SamplerType::Cube | SamplerType::Volume)
        );
        if !ok {
            self.err(
                "E0404",
                format_args!(
                    "dcl of {name}: texture type {} is not 2d, cube or volume",
                    ins.decl.sampler_type_raw()
                ),
            );
        }
        if n < 32 {
            if self.dcl_sampler & (1 << n) != 0 {
                self.err("E0403", format_args!("{name} declared twice"));
            }
            self.dcl_sampler |= 1 << n;
            self.quiet_read[RegisterType::Sampler as usize] |= 1 << n;
        }
        let _ = v;
    }

    fn flow(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let (max_loops, max_static, max_dyn) = self.ctx.nest;
        match op {
            Opcode::If | Opcode::IfC => {
                let dynamic = op == Opcode::IfC
                    || ins
                        .src()
                        .first()
                        .is_some_and(|s| s.reg.kind == RegisterType::Predicate);
                let b = if dynamic { Block::IfDyn } else { Block::IfBool };
                if dynamic {
                    self.dynamics += 1;
                    if self.dynamics > max_dyn {
                        self.err(
                            "E0505",
                            format_args!("{mn} nests dynamic flow control deeper than {max_dyn}"),
                        );
                    }
                } else {
                    self.statics += 1;
                    self.static_flow_count += 1;
                    if self.statics > max_static {
                        self.err(
                            "E0505",
                            format_args!("{mn} nests static flow control deeper than {max_static}"),
                        );
                    }
                }
                self.push(b);
            }
            Opcode::Else => match self.top() {
                Some(Block::IfBool | Block::IfDyn) => {}
                _ => self.err("E0501", format_args!("else without an open if")),
            },
            Opcode::EndIf => match self.top() {
                Some(b @ (Block::IfBool | Block::IfDyn)) => {
                    if b == Block::IfDyn {
                        self.dynamics -= 1;
                    } else {
                        self.statics -= 1;
                    }
                    self.depth -= 1;
                }
                _ => self.err("E0501", format_args!("endif without an open if")),
            },
            Opcode::Loop | Opcode::Rep => {
                self.loops += 1;
                self.static_flow_count += 1;
                if self.loops > max_loops {
                    self.err(
                        "E0505",
                        format_args!("{mn} nests loop/rep deeper than {max_loops}"),
                    );
                }
                self.push(if op == Opcode::Loop {
                    Block::Loop
                } else {
                    Block::Rep
                });
            }
            Opcode::EndLoop | Opcode::EndRep => {
                let want = if op == Opcode::EndLoop {
                    Block::Loop
                } else {
                    Block::Rep
                };
                if self.top() == Some(want) {
                    self.depth -= 1;
                    self.loops -= 1;
                } else {
                    self.err(
                        "E0502",
                        format_args!(
                            "{mn} does not close an open {}",
                            if want == Block::Loop { "loop" } else { "rep" }
                        ),
                    );
                }
            }
            Opcode::Break | Opcode::BreakC | Opcode::BreakP if self.loops == 0 => {
                self.err("E0504", format_args!("{mn} outside a loop or rep"));
            }
            Opcode::Call | Opcode::CallNz => {
                self.static_flow_count += 1;
                if let Some(l) = ins.src().first() {
                    if l.reg.kind == RegisterType::Label && (l.reg.num as usize) < 2048 {
                        let n = l.reg.num as usize;
                        self.labels_called[n / 64] |= 1 << (n % 64);
                        self.any_call = true;
                    }
                }
            }
            Opcode::Label => {
                if self.depth != 0 {
                    self.err(
                        "E0503",
                        format_args!("label inside an open flow-control block"),
                    );
                    self.depth = 0;
                    self.loops = 0;
                    self.statics = 0;
                    self.dynamics = 0;
                }
                if !self.main_ended {
                    self.err("E0506", format_args!("label before the main program's ret"));
                    self.main_ended = true;
                }
                self.in_sub = true;
                if let Some(l) = ins.src().first() {
                    if l.reg.kind == RegisterType::Label && (l.reg.num as usize) < 2048 {
                        let n = l.reg.num as usize;
                        if self.labels_defined[n / 64] & (1 << (n % 64)) != 0 {
                            self.err("E0506", format_args!("label l{n} defined twice"));
                        }
                        self.labels_defined[n / 64] |= 1 << (n % 64);
                    }
                }
            }
            Opcode::Ret if self.depth == 0 => {
                if self.in_sub {
                    self.in_sub = false;
                } else {
                    self.main_ended = true;
                }
            }
            _ => {}
        }
        if v.is_vertex() && v.code() == 0x0200 && self.static_flow_count == 17 {
            self.static_flow_count += 1;
            self.err(
                "E0505",
                format_args!("more than 16 static flow-control instructions in vs_2_0"),
            );
        }
    }

    fn push(&mut self, b: Block) {
        if self.depth < MAX_STACK {
            self.stack[self.depth] = b;
            self.depth += 1;
        } else {
            self.err(
                "E0505",
                format_args!("flow control nested deeper than {MAX_STACK}"),
            );
        }
    }

    fn top(&self) -> Option<Block> {
        self.depth.checked_sub(1).map(|i| self.stack[i])
    }

    /// ps_1_x ordering, texm3x* sequences, phase rules.
    fn ps1(&mut self, ins: &Instruction, class: SlotClass) {
        let v = self.v;
        if !(v.is_pixel() && v.major == 1) {
            return;
        }
        let op = ins.opcode;
        let mn = Mn(op, v);
        if op == Opcode::Phase {
            if self.phase_seen {
                self.err("E0604", format_args!("second phase instruction"));
            }
            self.phase_seen = true;
            self.seen_arith = false;
            self.arith_phase_reset();
            return;
        }
        match class {
            SlotClass::Texture => {
                if self.seen_arith {
                    self.err(
                        "E0601",
                        format_args!("texture instruction {mn} after an arithmetic instruction"),
                    );
                }
            }
            SlotClass::Arithmetic => self.seen_arith = true,
            SlotClass::None => {}
        }
        if v.minor == 4 {
            // texld/texcrd in phase 1 read t# only (r# coordinates are dependent reads).
            if matches!(op, Opcode::Tex) {
                if let Some(s) = ins.src().first() {
                    if s.reg.kind == RegisterType::Temp && !self.phase_seen {
                        self.err(
                            "E0704",
                            format_args!("texld from r{} before phase is a dependent read ps_1_4 allows only in phase 2", s.reg.num),
                        );
                    }
                }
            }
            return;
        }
        // ps_1_1-1_3 texture register rules.
        if class == SlotClass::Texture {
            let d = ins.dst.reg;
            let dn = d.num;
            if op != Opcode::TexKill && d.kind == RegisterType::AddrOrTexture && dn < 8 {
                if self.tex_loaded & (1 << dn) != 0 {
                    self.err(
                        "E0605",
                        format_args!("t{dn} is written by a second texture instruction"),
                    );
                }
                self.tex_loaded |= 1 << dn;
            }
            if let Some(s) = ins.src().first() {
                if s.reg.kind == RegisterType::AddrOrTexture && s.reg.num >= dn {
                    self.err(
                        "E0603",
                        format_args!(
                            "{mn} t{dn} reads t{}, which is not numbered below it",
                            s.reg.num
                        ),
                    );
                }
            }
            let src = ins.src().first().map(|s| s.reg.num).unwrap_or(0);
            // Pad sequences.
            if let Some((pad, next, psrc, remaining)) = self.pad_expect {
                let followers: &[Opcode] = if pad == Opcode::TexM3x2Pad {
                    &[Opcode::TexM3x2Tex, Opcode::TexM3x2Depth]
                } else if remaining > 1 {
                    &[Opcode::TexM3x3Pad]
                } else {
                    &[
                        Opcode::TexM3x3Tex,
                        Opcode::TexM3x3Spec,
                        Opcode::TexM3x3VSpec,
                        Opcode::TexM3x3,
                    ]
                };
                if !followers.contains(&op) || dn != next || src != psrc {
                    self.err(
                        "E0602",
                        format_args!("{} sequence broken by {mn} t{dn}", pad.mnemonic(v)),
                    );
                    self.pad_expect = None;
                } else if remaining > 1 {
                    self.pad_expect = Some((pad, dn + 1, psrc, remaining - 1));
                } else {
                    self.pad_expect = None;
                }
            } else {
                match op {
                    Opcode::TexM3x2Pad => self.pad_expect = Some((op, dn + 1, src, 1)),
                    Opcode::TexM3x3Pad => self.pad_expect = Some((op, dn + 1, src, 2)),
                    Opcode::TexM3x2Tex
                    | Opcode::TexM3x2Depth
                    | Opcode::TexM3x3Tex
                    | Opcode::TexM3x3Spec
                    | Opcode::TexM3x3VSpec
                    | Opcode::TexM3x3 => {
                        self.err(
                            "E0602",
                            format_args!("{mn} without the preceding pad instruction(s)"),
                        );
                    }
                    _ => {}
                }
            }
        } else if class == SlotClass::Arithmetic {
            if let Some((pad, ..)) = self.pad_expect.take() {
                self.err(
                    "E0602",
                    format_args!("{} sequence not completed before {mn}", pad.mnemonic(v)),
                );
            }
        }
    }

    fn arith_phase_reset(&mut self) {
        // ps_1_4: limits are per phase.
        self.arith = 0;
        self.tex = 0;
    }

    fn dependent_reads(&mut self, ins: &Instruction, class: SlotClass) {
        let v = self.v;
        let op = ins.opcode;
        let d = ins.dst.reg;
        if d.kind != RegisterType::Temp || d.num >= 32 {
            return;
        }
        let level_of = |s: &SrcParam, lv: &[u8; 32]| -> u8 {
            if s.reg.kind == RegisterType::Temp && s.reg.num < 32 {
                lv[s.reg.num as usize]
            } else {
                0
            }
        };
        let dn = d.num as usize;
        if class == SlotClass::Texture && op != Opcode::TexKill {
            // Order: 0 for t# coordinates, else the level of the coordinate register;
            // rewriting a previously written register also makes the read dependent.
            let mut order = 0u8;
            if let Some(s) = ins.src().first() {
                if s.reg.kind == RegisterType::Temp {
                    order = level_of(s, &self.dep_level).max(1);
                }
            }
            if self.temp_written[dn] & 0x7F != 0 {
                order = order.max(self.dep_level[dn]);
            }
            if order > 3 {
                self.err(
                    "E0704",
                    format_args!("{} is a dependent read of order {order}; ps_2_0 allows at most third order", op.mnemonic(v)),
                );
            }
            self.dep_level[dn] = order.saturating_add(1).min(8);
        } else if class == SlotClass::Arithmetic {
            let m = ins
                .src()
                .iter()
                .map(|s| level_of(s, &self.dep_level))
                .max()
                .unwrap_or(0);
            self.dep_level[dn] = if ins.dst.mask == 0xF {
                m
            } else {
                m.max(self.dep_level[dn])
            };
        }
    }

    #[inline]
    fn mark_written(&mut self, ins: &Instruction, f: &OpFacts) {
        if !self.ctx.temp_rbw || !f.layout.dst || ins.opcode == Opcode::TexKill {
            return;
        }
        let d = ins.dst.reg;
        let n = d.num as usize;
        if d.kind == RegisterType::Temp && n < 32 {
            // ps_1_x texture instructions (texm3x2pad etc.) fill the whole register.
            let mask = if self.ctx.ps1 && f.class == SlotClass::Texture {
                0xF
            } else {
                ins.dst.mask
            };
            self.temp_written[n] |= mask;
            self.temp_now_written(n);
        }
    }

    #[inline]
    fn count(&mut self, ins: &Instruction, f: &OpFacts) {
        if !self.ctx.split_counts {
            // Only the total is limited, and nothing reads the previous instruction.
            self.slots = self.slots.saturating_add(f.slots);
            if self.slots > self.ctx.limits.0 {
                self.count_over(f.slots);
            }
            return;
        }
        let class = f.class;
        let slots = if self.ctx.ps1 {
            // ps_1_x: every instruction is one slot; a co-issued pair shares one.
            u32::from(class != SlotClass::None && !ins.coissue)
        } else {
            f.slots
        };
        self.slots = self.slots.saturating_add(slots);
        match class {
            SlotClass::Arithmetic => self.arith = self.arith.saturating_add(slots),
            SlotClass::Texture => self.tex = self.tex.saturating_add(slots),
            SlotClass::None => {}
        }
        let (total, a, t) = self.ctx.limits;
        if (self.slots > total) | (self.arith > a) | (self.tex > t) {
            self.count_over(slots);
        }
        if class == SlotClass::Arithmetic {
            self.prev_arith = Some((ins.dst.mask, ins.coissue));
        } else if class != SlotClass::None {
            self.prev_arith = None;
        }
    }

    /// The slot-limit findings, once a count is over its limit.
    #[cold]
    #[inline(never)]
    fn count_over(&mut self, slots: u32) {
        let v = self.v;
        let (total, a, t) = self.ctx.limits;
        let (n_slots, n_arith, n_tex) = (self.slots, self.arith, self.tex);
        if self.slots > total && self.slots - slots <= total {
            self.err(
                "E0701",
                format_args!("instruction slot {n_slots} exceeds the {v} limit of {total}"),
            );
        }
        if self.arith > a && self.arith - slots <= a {
            self.err(
                "E0703",
                format_args!("arithmetic slot {n_arith} exceeds the {v} limit of {a}"),
            );
        }
        if self.tex > t && self.tex - slots <= t {
            self.err(
                "E0702",
                format_args!("texture slot {n_tex} exceeds the {v} limit of {t}"),
            );
        }
    }

    fn finish(&mut self) {
        self.item = self.last_item;
        self.offset = self.last_offset;
        if self.depth != 0 {
            let what = match self.top() {
                Some(Block::Loop) => "loop",
                Some(Block::Rep) => "rep",
                _ => "if",
            };
            self.err(
                "E0503",
                format_args!("{what} block not closed at the end of the shader"),
            );
        }
        if let Some((pad, ..)) = self.pad_expect {
            self.err(
                "E0602",
                format_args!(
                    "{} sequence not completed at the end of the shader",
                    pad.mnemonic(self.v)
                ),
            );
        }
        for w in 0..if self.any_call { 32 } else { 0 } {
            let missing = self.labels_called[w] & !self.labels_defined[w];
            if missing != 0 {
                let n = w * 64 + missing.trailing_zeros() as usize;
                self.err(
                    "E0506",
                    format_args!("call to l{n}, which no label defines"),
                );
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_are_unique_and_sorted() {
        let r = rules();
        for w in r.windows(2) {
            assert!(w[0].code < w[1].code, "{} / {}", w[0].code, w[1].code);
        }
    }

    fn codes(tokens: &[u32]) -> Vec<&'static str> {
        validate(&Shader::decode(tokens).unwrap())
            .iter()
            .map(|f| f.code)
            .collect()
    }

    #[test]
    fn offsets_count_comments_and_operands() {
        // vs_2_0; comment(2); dcl_position v0; mov r0, c300 (warning); mov oPos, r5 (E0204)
        let tokens = [
            0xFFFE0200, 0x0002FFFE, 0, 0, 0x0200001F, 0x80000000, 0x900F0000, 0x02000001,
            0x800F0000, 0xA0E4012C, 0x02000001, 0xC00F0000, 0x80E40005, 0x0000FFFF,
        ];
        let f = validate(&Shader::decode(&tokens).unwrap());
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!((f[0].code, f[0].item, f[0].offset), ("E0208", 2, 7));
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!((f[1].code, f[1].item, f[1].offset), ("E0204", 3, 10));
        assert!(f[1].message.contains("r5") && f[1].message.contains("Temporary Register"));
    }

    #[test]
    fn subroutine_writes_count_before_the_call() {
        // vs_2_0; call l0; mov oPos, r0; ret; label l0; mov r0, c0; ret
        let tokens = [
            0xFFFE0200, 0x01000019, 0xA0E41000, 0x02000001, 0xC00F0000, 0x80E40000, 0x0000001C,
            0x0100001E, 0xA0E41000, 0x02000001, 0x800F0000, 0xA0E40000, 0x0000001C, 0x0000FFFF,
        ];
        assert_eq!(codes(&tokens), Vec::<&str>::new());
        // Without the label: call to an undefined label.
        let bad = [0xFFFE0200, 0x01000019, 0xA0E41000, 0x0000FFFF];
        assert_eq!(codes(&bad), vec!["E0506"]);
    }

    /// The per-version tables: every D3D9 version is cached, opcodes outside
    /// [`op_swizzle_rules`] follow the version's swizzle rule, and the swizzle sets fit.
    #[test]
    fn version_tables_are_complete() {
        let mut versions = Vec::new();
        for (major, minor) in [(1, 0), (1, 1), (2, 0), (2, 1), (2, 0xFF), (3, 0), (3, 0xFF)] {
            versions.push(Version::vertex(major, minor));
        }
        for (major, minor) in [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 0), (2, 1)] {
            versions.push(Version::pixel(major, minor));
        }
        versions.extend([(2, 0xFF), (3, 0), (3, 0xFF)].map(|(a, b)| Version::pixel(a, b)));
        for v in versions {
            assert!(Ctx::cached(v).is_some(), "{v}");
            let generic = src_swizzles(v, Opcode::Mov, 0);
            let mut sets = vec![[0; 4], generic];
            for row in OPCODES {
                for k in 0..4 {
                    let own = src_swizzles(v, row.opcode, k);
                    if !op_swizzle_rules(row.opcode) {
                        assert_eq!(own, generic, "{v} {:?} source {k}", row.opcode);
                    } else if !sets.contains(&own) {
                        sets.push(own);
                    }
                }
            }
            assert!(
                sets.len() <= SWIZZLE_SETS,
                "{v}: {} swizzle sets",
                sets.len()
            );
        }
    }

    #[test]
    fn every_rule_has_text() {
        for r in rules() {
            assert!(!r.summary.is_empty() && !r.source.is_empty() && !r.versions.is_empty());
            assert_eq!(r.code.len(), 5);
        }
    }

    #[test]
    fn simple_vs_is_valid() {
        let tokens = [0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF];
        let s = Shader::decode(&tokens).unwrap();
        assert!(validate(&s).is_empty());
    }

    /// Fields a listing cannot show are rejected, so whatever validates prints in a form
    /// that reassembles exactly (tests/mutant_roundtrip.rs checks that over thousands of
    /// corpus mutants).
    #[test]
    fn fields_the_listing_cannot_show_are_rejected() {
        // ps_2_0: def c0 with a partial mask, with _sat, with a shift.
        for dst in [0xA007_0000u32, 0xA01F_0000, 0xA10F_0000] {
            let t = [
                0xFFFF0200, 0x05000051, dst, 0, 0, 0, 0, 0x02000001, 0x800F0800, 0xA0E40000,
                0x0000FFFF,
            ];
            let c = codes(&t);
            assert!(
                c.iter().any(|c| matches!(*c, "E0306" | "E0302" | "E0303")),
                "{dst:08x}: {c:?}"
            );
        }
        // vs_2_0: dcl_position v0 with a shift; with an empty mask.
        let t = [0xFFFE0200, 0x0200001F, 0x80000000, 0x910F0000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0303"]);
        let t = [0xFFFE0200, 0x0200001F, 0x80000000, 0x90000000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0306"]);
        // vs_2_0: mov r0 with an empty mask.
        let t = [0xFFFE0200, 0x02000001, 0x80000000, 0xA0E40000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0306"]);
        // ps_3_0: dcl vFace with a usage in its token.
        let t = [
            0xFFFF0300, 0x0200001F, 0x80000001, 0x900F1001, 0x02000001, 0x800F0800, 0xA0E40000,
            0x0000FFFF,
        ];
        assert!(codes(&t).contains(&"E0402"), "{:?}", codes(&t));
        // vs_3_0: c0[aL] whose address token carries a swizzle.
        let t = [
            0xFFFE0300, 0x0200001F, 0x80000000, 0xE00F0000, 0x05000030, 0xF00F0000, 1, 0, 1, 0,
            0x0200001B, 0xF0E40800, 0xF0E40000, 0x03000001, 0xE00F0000, 0xA0E42000, 0xF0000800,
            0x0000001D, 0x0000FFFF,
        ];
        assert!(codes(&t).contains(&"E0206"), "{:?}", codes(&t));
    }
}
