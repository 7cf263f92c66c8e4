//! The rule table: every rule code, its family, versions, summary and source page.

/// One rule of the validator, as documented in `docs/validation.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleInfo {
    /// The rule.
    pub rule: Rule,
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

pub(super) const F_INS: &str = "instructions";
pub(super) const F_REG: &str = "registers";
pub(super) const F_MOD: &str = "modifiers";
pub(super) const F_DCL: &str = "declarations";
pub(super) const F_FLOW: &str = "flow control";
pub(super) const F_PS1: &str = "ps_1_x";
pub(super) const F_CNT: &str = "counts";

macro_rules! rules {
    ($( $code:ident, $fam:expr, $ver:literal, $sum:literal, $src:literal; )*) => {
        /// A validator rule, by its stable code (`Rule::E0401`); [`Rule::info`] gives its
        /// row of the table (family, versions, summary, documentation page).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        #[repr(u8)]
        pub enum Rule { $( #[doc = $sum] $code, )* }

        static RULES: &[RuleInfo] = &[ $( RuleInfo {
            rule: Rule::$code, code: stringify!($code), family: $fam, versions: $ver,
            summary: $sum, source: $src,
        }, )* ];
    };
}

rules! {
    // --- instruction availability and operand shape ---
    E0101, F_INS, "all", "the opcode does not exist in this shader version",
        "Instructions - vs_1_1/vs_2_0/vs_2_x/vs_3_0, Instructions - ps_1_1../ps_3_0 (instruction tables)";
    E0102, F_INS, "vs_2_x+, ps_2_x+", "ifc/breakc/setp need a comparison (gt, eq, ge, lt, ne, le) in the controls field",
        "if_comp - vs, break_comp - vs, setp_comp - vs (and the - ps pages)";
    E0103, F_INS, "all", "controls field set on an instruction that has none (texldp/texldb controls only on texld in ps_2_0+)",
        "texld - ps_2_0 and up, texldp - ps, texldb - ps; D3DSHADER_INSTRUCTION_OPCODE_TYPE";
    E0104, F_INS, "all", "an operand has the wrong register type for this instruction (e.g. texld sampler not s#, loop not aL/i#, mova not a0)",
        "per-instruction pages (texld, loop - vs, rep - vs, if bool, callnz, mova - vs, setp_comp, label, texkill ...)";

    // --- registers ---
    E0201, F_REG, "all", "register type cannot be read in this shader version",
        "Registers - vs_1_1, vs_2_0, vs_2_x, vs_3_0; Registers - ps_1_x, ps_2_0, ps_2_x, ps_3_0";
    E0202, F_REG, "all", "register type cannot be written in this shader version",
        "Registers - vs_1_1 ... ps_3_0 (read/write columns)";
    E0203, F_REG, "all", "register index out of range for this shader version",
        "Registers - vs_1_1, vs_2_0, vs_2_x, vs_3_0; Registers - ps_1_X, ps_2_0, ps_2_x, ps_3_0 (register counts)";
    E0204, F_REG, "vs_1_1-vs_2_x, ps_1_1-ps_2_x", "a temporary register is read before any instruction wrote it",
        "Temporary Register (HLSL VS reference); Temporary register (HLSL PS reference)";
    E0205, F_REG, "all", "write to a read-only register (input, constant, sampler, texture coordinate in ps_1_4+ ...)",
        "Registers - vs_1_1 ... vs_3_0, Registers - ps_1_X ... ps_3_0 (read-only registers)";
    E0206, F_REG, "all", "relative addressing not allowed on this operand or with this address register",
        "Relative Addressing (vs), Registers - vs_3_0 (o[aL], v[aL]), Registers - ps_3_0 (v[aL], c[aL])";
    E0207, F_REG, "vs_2_0+, ps_3_0", "the loop counter aL is used outside a loop",
        "Loop Counter Register (vs, ps); loop - vs";
    E0208, F_REG, "vs (not _sw)", "warning: constant c256 or above; only devices with software vertex processing expose more than 256 (hardware devices reject it)",
        "Constant Float Register (HLSL VS reference); D3DCAPS9 (MaxVertexShaderConst)";

    // --- modifiers ---
    E0301, F_MOD, "all", "source modifier not allowed here in this shader version",
        "Vertex Shader Source Register Modifiers; Pixel Shader Source Register Modifiers";
    E0302, F_MOD, "all", "result modifier (_sat, _pp, _centroid) not allowed here",
        "Destination Register Modifiers (vs, ps); Pixel Shader Instruction Modifiers; dcl_usage input (centroid)";
    E0303, F_MOD, "ps_1_x", "result shift (_x2/_x4/_x8/_d2/_d4/_d8) not allowed here",
        "Instruction Modifiers - ps_1_x (shift modifiers)";
    E0304, F_MOD, "ps_1_x", "co-issue only in ps_1_x, on an arithmetic instruction following another, writing disjoint colour/alpha masks",
        "Co-issued instructions - ps_1_1 - ps_1_4";
    E0305, F_MOD, "all", "a replicate swizzle (.x/.y/.z/.w) is required on this source",
        "rcp, rsq, exp, log, pow, expp, logp, if_comp, break_comp, if pred, callnz pred, breakp pages";
    E0306, F_MOD, "all", "destination write mask not allowed for this instruction (sincos, crs, m3x2..m4x4, bem, texld ...)",
        "sincos - vs/ps, crs - vs/ps, m3x2..m4x4 - vs/ps, bem - ps, texld - ps_2_0 and up, Destination Register Write Mask";
    E0307, F_MOD, "ps_2_0, ps_1_x", "source swizzle not supported by this version (arbitrary swizzle needs ps_2_x)",
        "Source register swizzling (HLSL PS reference); texld - ps_2_0 and up (no swizzle on src)";
    E0308, F_MOD, "all", "matrix/cross-product/normalize operand constraints (no swizzle/negate on the matrix source, dst not a source, nrm dst a temp)",
        "m4x4 - vs/ps (and m4x3, m3x4, m3x3, m3x2), crs - vs/ps, nrm - vs/ps";
    E0309, F_MOD, "vs_2_x+, ps_2_x+", "predication not allowed in this version or on this instruction",
        "Predicate Register; setp_comp; Instruction Modifiers (predication)";

    // --- declarations ---
    E0401, F_DCL, "vs_2_0+, ps_2_0+", "register used without a dcl (inputs vs_2_0+, outputs vs_3_0, t#/v#/s# ps_2_0+)",
        "dcl_usage input register (vs/ps), dcl_samplerType (sm2, sm3 - ps asm), Registers - ps_2_0";
    E0402, F_DCL, "all with dcl", "dcl of a register type the version cannot declare, or a usage form it does not take",
        "dcl_usage input (sm1, sm2, sm3 - vs asm), dcl_usage output (sm3 - vs), dcl_usage input (sm2, sm3 - ps asm)";
    E0403, F_DCL, "all with dcl", "register or semantic declared twice (vs_3_0 outputs / ps_3_0 inputs may split a register by disjoint masks; a semantic is declared once)",
        "dcl_usage output (sm3 - vs asm); dcl_usage input (sm2, sm3 - vs/ps asm)";
    E0404, F_DCL, "vs_3_0, ps_2_0+", "sampler declared with an unknown texture type",
        "dcl_samplerType (sm2, sm3 - ps asm), dcl_samplerType (sm3 - vs asm); D3DSAMPLER_TEXTURE_TYPE";
    E0405, F_DCL, "all", "dcl/def/defi/defb after the first executable instruction",
        "def - vs/ps, defi, defb, dcl_usage (declarations precede instructions)";
    E0406, F_DCL, "all with dcl", "declaration usage or usage index out of range",
        "D3DDECLUSAGE; dcl_usage input (sm2, sm3 - ps asm) (texcoord0-7, color0-1)";
    E0407, F_DCL, "vs_3_0", "warning: an output register declared for two usages with overlapping masks (the docs ask for disjoint masks; shipped shaders do it and run)",
        "dcl_usage output (sm3 - vs asm); HelixMod TheLongDark overrides (dcl_fog o9 + dcl_color o9)";
    E0408, F_DCL, "ps_3_0", "warning: vPos or vFace read without a dcl (the docs require one; shipped shaders omit it and the runtime accepts them)",
        "Registers - ps_3_0 (misc registers need dcl); HelixMod Betrayer overrides (vPos.xy read without dcl vPos)";

    // --- flow control ---
    E0501, F_FLOW, "vs_2_0+, ps_2_x+", "else/endif without an open if, or a second else for one if",
        "else - vs/ps, endif - vs/ps";
    E0502, F_FLOW, "vs_2_0+, ps_2_x+", "endloop/endrep without the matching open loop/rep",
        "endloop - vs/ps, endrep - vs/ps";
    E0503, F_FLOW, "vs_2_0+, ps_2_x+", "flow-control block still open at the end of the shader or subroutine",
        "if bool, loop, rep pages (each needs its closing instruction)";
    E0504, F_FLOW, "vs_2_x+, ps_2_x+", "break/breakc/breakp outside a loop or rep",
        "break - vs/ps, break_comp, breakp";
    E0505, F_FLOW, "vs_2_0+, ps_2_x+", "flow-control nesting depth exceeds the version's limit",
        "Flow Control Nesting Limits (vs); Flow Control Limitations (ps)";
    E0506, F_FLOW, "vs_2_0+, ps_2_x+", "call/label/ret structure: label only after the main ret, defined once; call targets defined",
        "label - vs/ps, call - vs/ps, callnz, ret - vs/ps";

    // --- ps_1_x specifics ---
    E0601, F_PS1, "ps_1_1-ps_1_4", "texture instruction after an arithmetic instruction (per phase in ps_1_4)",
        "Texture Addressing Instructions ps_1_1-ps_1_3; phase - ps; texld - ps_1_4";
    E0602, F_PS1, "ps_1_1-ps_1_3", "texm3x2pad/texm3x3pad sequence broken (wrong follower, register numbers not consecutive, different source)",
        "texm3x2pad - ps, texm3x2tex - ps, texm3x3pad - ps, texm3x3tex/spec/vspec - ps, texm3x2depth";
    E0603, F_PS1, "ps_1_1-ps_1_3", "texture instruction source t# must be numbered below its destination t#",
        "texbem, texbeml, texreg2ar, texreg2gb, texm3x2pad, texm3x3pad ... - ps (register rules)";
    E0604, F_PS1, "ps_1_4", "phase rules: at most one phase; texcrd/texld sources t# in phase 1",
        "phase - ps; texcrd - ps; texld - ps_1_4";
    E0605, F_PS1, "ps_1_1-ps_1_3", "a texture register is written by more than one texture instruction",
        "Texture Register (HLSL PS reference); tex - ps, texm3x2pad - ps";

    // --- counts ---
    E0701, F_CNT, "all", "too many instruction slots for this version",
        "vs_1_1, vs_2_0, vs_2_x, vs_3_0, ps_2_x, ps_3_0 (instruction slots); D3DCAPS9 (MaxVertexShader30InstructionSlots, MaxPixelShader30InstructionSlots)";
    E0702, F_CNT, "ps_1_x, ps_2_0", "too many texture-addressing instruction slots (ps_1_1-1_3: 4, ps_1_4: 6 per phase, ps_2_0: 32)",
        "ps_1_1 - ps_1_3, ps_1_4, ps_2_0 (instruction counts)";
    E0703, F_CNT, "ps_1_x, ps_2_0", "too many arithmetic instruction slots (ps_1_x: 8 (per phase in ps_1_4), ps_2_0: 64)",
        "ps_1_1 - ps_1_3, ps_1_4, ps_2_0 (instruction counts)";
    E0704, F_CNT, "ps_1_4, ps_2_0", "dependent texture read deeper than allowed (ps_1_4: only in phase 2; ps_2_0: at most third order)",
        "texld - ps_2_0 and up (dependent read order); texld - ps_1_4; phase - ps";
}

/// Every rule the validator applies, in code order.
pub fn rules() -> &'static [RuleInfo] {
    RULES
}

impl Rule {
    /// The rule's row of [`rules()`].
    #[inline]
    pub fn info(self) -> &'static RuleInfo {
        // Rows are in declaration order (checked by a unit test).
        &RULES[self as usize]
    }

    /// The stable code (`"E0401"`).
    #[inline]
    pub fn code(self) -> &'static str {
        self.info().code
    }

    /// Looks a rule up by its code (`"E0401"`).
    pub fn from_code(code: &str) -> Option<Rule> {
        RULES.iter().find(|r| r.code == code).map(|r| r.rule)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_and_table_agree() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.rule as usize, i);
            assert_eq!(r.rule.info().code, r.code);
            assert_eq!(Rule::from_code(r.code), Some(r.rule));
            assert_eq!(r.rule.to_string(), r.code);
        }
        assert_eq!(Rule::E0401.code(), "E0401");
        assert_eq!(Rule::from_code("E9999"), None);
    }
}
