//! Per-version register and opcode facts, tabled once per version (the fast path
//! of the pass reads these).

use super::*;

// ---------------------------------------------------------------------------------------
// Per-version register facts.
// ---------------------------------------------------------------------------------------

pub(super) use crate::regs::{runtime_file as reg_file, Name as RegName, RegFile};

pub(super) fn is_const_float(t: RegisterType) -> bool {
    matches!(
        t,
        RegisterType::Const | RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4
    )
}

/// Registers that carry float data an arithmetic instruction may read.
pub(super) fn is_float_source(v: Version, t: RegisterType) -> bool {
    use RegisterType::*;
    match t {
        Temp | Input | Const | Const2 | Const3 | Const4 | MiscType => true,
        AddrOrTexture => v.is_pixel(),
        _ => false,
    }
}

pub(super) fn replicate(swz: u8) -> bool {
    let c = swz & 3;
    swz == c * 0x55
}

/// Maximum slot counts, `(total, arithmetic, texture)`; `u32::MAX` = no limit.
/// vs_1_1 128; vs_2_0, vs_2_x 256; vs_3_0 up to 32768 (MaxVertexShader30InstructionSlots);
/// ps_1_1-1_3 8+4; ps_1_4 8+6 per phase; ps_2_0 64+32; ps_2_x 512; ps_3_0 up to 32768.
pub(super) fn slot_limits(v: Version) -> (u32, u32, u32) {
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
pub(super) fn nesting_limits(v: Version) -> (u32, u32, u32) {
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
pub(super) mod flag {
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

pub(super) fn op_flags(op: Opcode) -> u16 {
    use Opcode::*;
    let mut f = 0;
    if op.is_declaration() {
        f |= flag::DECL;
    }
    if op.is_marker() {
        f |= flag::NOT_EXEC;
    }
    if op.is_flow() {
        f |= flag::FLOW;
    }
    if op.matrix().is_some() || matches!(op, SinCos | Crs | Nrm | Bem) {
        f |= flag::SPECIFIC;
    }
    if op.is_texld() {
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
pub(super) fn src_role_ok(v: Version, op: Opcode, k: usize, t: RegisterType) -> bool {
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
pub(super) fn dst_role_ok(v: Version, op: Opcode, r: Register) -> bool {
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
pub(super) fn is_tex_coord(v: Version, op: Opcode, k: usize) -> bool {
    v.is_pixel() && v.major == 2 && k < 2 && op.is_texld()
}

/// The E0301 rule: may source `k` of `op`, a register of type `r`, carry modifier `m`?
pub(super) fn src_mod_ok(
    v: Version,
    op: Opcode,
    k: usize,
    m: SrcModifier,
    r: RegisterType,
) -> bool {
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
pub(super) fn ps_swizzle_ok(v: Version, s: u8) -> bool {
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
pub(super) fn needs_replicate(v: Version, op: Opcode, k: usize, r: RegisterType, s: u8) -> bool {
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
pub(super) fn swizzle_ok(v: Version, op: Opcode, k: usize, needs_rep: bool, s: u8) -> bool {
    if is_tex_coord(v, op, k) {
        s == 0xE4
    } else if v.is_pixel() && v.code() <= 0x0200 && !needs_rep {
        let tex_src = op.is_texld() && v.major == 2;
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
pub(super) fn op_swizzle_rules(op: Opcode) -> bool {
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
pub(super) fn src_swizzles(v: Version, op: Opcode, k: usize) -> [u64; 4] {
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
pub(super) fn sat_ok(v: Version, tex: bool) -> bool {
    match v.kind {
        ShaderKind::Vertex => v.major >= 3,
        // "Instruction modifiers ... may not be used on texture address instructions."
        ShaderKind::Pixel => !(v.major == 1 && tex),
    }
}

/// `_pp` in `v`.
pub(super) fn pp_ok(v: Version) -> bool {
    v.is_pixel() && v.major >= 2
}

/// `_centroid` on an instruction of `tex` class in `v`.
pub(super) fn centroid_ok(v: Version, tex: bool) -> bool {
    v.is_pixel() && v.major >= 2 && tex
}

/// Whether reading a register of type `t` needs a `dcl` in `v` (the register table).
pub(super) fn needs_dcl(v: Version, t: RegisterType) -> bool {
    crate::regs::file(v, t).is_some_and(|f| f.dcl)
}

/// The register types (bit `t as u32`) for which `f` holds.
pub(super) fn type_mask(f: impl Fn(RegisterType) -> bool) -> u32 {
    (0..32u8)
        .filter_map(RegisterType::from_u8)
        .filter(|&t| f(t))
        .fold(0, |m, t| m | 1 << t as u32)
}

/// Facts of one opcode in one shader version, looked up once per instruction (the
/// fields every instruction reads first, to keep them in one cache line).
#[derive(Clone, Copy)]
#[repr(C)]
pub(super) struct OpFacts {
    pub(super) legal: bool,
    /// Takes `State::instruction_full` (declarations, flow control, instruction-specific
    /// rules, texkill).
    pub(super) full: bool,
    pub(super) class: SlotClass,
    /// `texld` in 2.0 models: E0306 applies to the write mask.
    pub(super) texld_mask: bool,
    /// `flag::*` bits.
    pub(super) flags: u16,
    /// The controls values that need no check (E0102, E0103), inclusive.
    pub(super) ctrl: (u8, u8),
    /// Legal and not `full`.
    pub(super) plain: bool,
    pub(super) layout: Layout,
    /// Per source `k`: the index in [`Ctx::swizzles`] of the swizzles that pass E0305
    /// and E0307 whatever the register type (the empty set where the rule depends on
    /// the type: `if`, `breakp`, `callnz`).
    pub(super) src_swz: [u8; 4],
    /// [`Opcode::slots`].
    pub(super) slots: u32,
    /// Per source `k` and register type: numbers below this pass the file, range and
    /// role rules silently (0: take the full check).
    pub(super) src_lim: [[u16; 20]; 4],
    /// The same for the destination (also 0 for vs_3_0 outputs, which need a dcl).
    pub(super) dst_lim: [u16; 20],
    /// Register types source `k` may be ([`src_role_ok`]).
    pub(super) src_role: [u32; 4],
    /// Result-modifier bits allowed on the destination (E0302).
    pub(super) dst_mods: u8,
    /// Per source modifier: the register types that may carry it on any source
    /// ([`src_mod_ok`] for source 0, which is at least as strict as the others).
    pub(super) src_mods: [u32; 16],
}

/// Most distinct swizzle sets one version's opcodes need (see [`OpFacts::src_swz`]).
pub(super) const SWIZZLE_SETS: usize = 8;

impl OpFacts {
    /// The facts of `op` in `v`; its swizzle sets are added to `sets` (index 0 is the
    /// empty set, also used should the sets ever run out).
    pub(super) fn new(v: Version, op: Opcode, ctx: &Limits, sets: &mut Vec<[u64; 4]>) -> OpFacts {
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
            texld_mask: op.is_texld() && v.major == 2,
            full,
            plain: op.is_legal(v) && !full,
            dst_mods,
        }
    }
}

/// The register-number limits of a version (see [`Ctx`]).
pub(super) struct Limits {
    pub(super) src_lim: [u32; 20],
    pub(super) dst_lim: [u32; 20],
}

/// Everything the pass needs to know about a shader version, computed once per version.
pub(super) struct Ctx {
    pub(super) files: [Option<RegFile>; 20],
    pub(super) limits: (u32, u32, u32),
    pub(super) nest: (u32, u32, u32),
    /// Per register type: numbers below this pass the range checks silently (E0201-E0203,
    /// E0208); 0 where the type does not exist or always takes the full check.
    pub(super) idx_lim: [u32; 20],
    /// As `idx_lim`, 0 where the type cannot be read.
    pub(super) src_lim: [u32; 20],
    /// As `idx_lim`, 0 where the type cannot be written.
    pub(super) dst_lim: [u32; 20],
    /// Register types whose reads need a `dcl`.
    pub(super) needs_dcl: u32,
    /// The initial `State::quiet_read`: nothing declared, no temp written.
    pub(super) quiet_read: [u32; 20],
    /// Per opcode, by [`Opcode::row`].
    pub(super) ops: Vec<OpFacts>,
    /// Swizzle sets (bit `s`), indexed by [`OpFacts::src_swz`].
    pub(super) swizzles: [[u64; 4]; SWIZZLE_SETS],
    /// ps_1_x.
    pub(super) ps1: bool,
    /// ps_1_1-ps_1_3 (and ps_1_0).
    pub(super) ps1_13: bool,
    /// ps_2_0 (dependent-read rules).
    pub(super) ps20: bool,
    /// Temporaries must be written before they are read (E0204: before 3.0); also
    /// whether anything reads the written-temp masks at all.
    pub(super) temp_rbw: bool,
    /// Arithmetic/texture slots are limited separately, or co-issue pairs matter (ps_1_x,
    /// ps_2_0): the split counters and the previous arithmetic instruction are kept.
    pub(super) split_counts: bool,
    /// Relative addressing takes its own token.
    pub(super) rel_tok: bool,
}

impl Ctx {
    pub(super) fn new(v: Version) -> Ctx {
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
            ps1: v.is_ps_1_x(),
            ps1_13: v.is_ps_1_x() && !v.is_ps_1_4(),
            ps20: v.is_pixel() && v.code() == 0x0200,
            temp_rbw: v.major < 3,
            split_counts: v.is_ps_1_x()
                || slot_limits(v).1 != u32::MAX
                || slot_limits(v).2 != u32::MAX,
            rel_tok: v.has_relative_token(),
        }
    }

    /// The tables of the D3D9 versions, built on first use.
    pub(super) fn cached(v: Version) -> Option<&'static Ctx> {
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
pub(super) fn operand_len(ins: &Instruction, l: Layout, rel_tok: bool) -> usize {
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
