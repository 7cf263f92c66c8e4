//! What the version allows: instruction modifiers, register files and numbers, and
//! source operands (modifiers, swizzles, relative addressing).

use super::operands::{RegRef, SrcParsed, Suffix};
use super::statements::NameMods;
use super::{err, LResult, Parser};
use crate::asm::regs::{self, RegName};
use crate::ir::{SrcParam, SWIZZLE_IDENTITY};
use crate::opcode::{modifiers, Opcode};
use crate::token::{result_modifier, SrcModifier};

impl<'a> Parser<'a> {
    pub(super) fn check_instruction_mods(
        &self,
        opcode: Opcode,
        m: &NameMods,
        has_dst: bool,
        ms: usize,
        me: usize,
    ) -> LResult<()> {
        let version = self.version.expect("version");
        let name = opcode.mnemonic(version);
        if m.shift.is_some() {
            if !(self.raw || modifiers(version).shift) {
                return err(
                    ms,
                    me,
                    format!("shift modifiers (`_x2`, `_d2`, ...) are only available in ps_1_x, not in {version}"),
                );
            }
            // `dcl` carries a shift only in streams the runtime rejects (raw reads them).
            if !has_dst || (opcode.is_declaration() && !(opcode == Opcode::Dcl && self.raw)) {
                return err(ms, me, format!("`{name}` takes no shift modifier"));
            }
        }
        if m.modifiers != 0 {
            if !has_dst || matches!(opcode, Opcode::Def | Opcode::DefI | Opcode::DefB) {
                return err(ms, me, format!("`{name}` takes no instruction modifiers"));
            }
            if opcode == Opcode::Dcl {
                if version.is_vertex() && !self.raw {
                    return err(ms, me, "vertex shader declarations take no modifiers");
                }
                if m.modifiers & result_modifier::SATURATE != 0 && !self.raw {
                    return err(ms, me, "`_sat` is not allowed on a declaration");
                }
            }
            let pp_or_centroid =
                m.modifiers & (result_modifier::PARTIAL_PRECISION | result_modifier::CENTROID);
            if pp_or_centroid != 0 && !(self.raw || modifiers(version).partial_precision) {
                return err(
                    ms,
                    me,
                    format!("`_pp` and `_centroid` are only available in ps_2_0 and later, not in {version}"),
                );
            }
        }
        if opcode == Opcode::Dcl && m.shift.is_some() && !self.raw {
            return err(ms, me, "shift modifiers are not allowed on a declaration");
        }
        Ok(())
    }

    pub(super) fn check_reg(&self, r: &RegRef) -> LResult<()> {
        let version = self.version.expect("version");
        let max = if r.name == RegName::Const { 8191 } else { 2047 };
        if self.raw && (r.num > max || r.rel.is_some_and(|a| a.num > 2047)) {
            return err(
                r.start,
                r.end,
                "register number too large for the token format",
            );
        }
        let Some(rule) = regs::rule(version, r.name).or(self.raw.then_some(regs::RegRule {
            count: max + 1,
            rel: true,
        })) else {
            return err(
                r.start,
                r.end,
                format!(
                    "register `{}` does not exist in {version}",
                    r.name.spelling()
                ),
            );
        };
        if let Some(a) = r.rel {
            if !rule.rel && !self.raw {
                return err(
                    r.start,
                    r.end,
                    format!(
                        "register `{}` cannot be relatively addressed in {version}",
                        r.name.spelling()
                    ),
                );
            }
            if !regs::address_register_allowed(version, a.name) && !self.raw {
                return err(
                    a.start,
                    a.end,
                    format!(
                        "`{}` cannot be used for relative addressing in {version}",
                        a.name.spelling()
                    ),
                );
            }
            if regs::rule(version, a.name).is_none_or(|ar| a.num >= ar.count) && !self.raw {
                return err(a.start, a.end, "no such address register");
            }
            match a.name {
                RegName::Loop if a.swizzle.is_some() => {
                    return err(a.start, a.end, "`aL` takes no swizzle");
                }
                RegName::Addr
                    if version.major == 1
                        && !a.swizzle.is_some_and(|s| s.len == 1 && s.comps[0] == 0) =>
                {
                    return err(
                        a.start,
                        a.end,
                        format!("{version} only has `a0.x` for relative addressing"),
                    );
                }
                _ => {}
            }
            if r.num > 8191 {
                return err(r.start, r.end, "register offset out of range");
            }
        } else if r.num >= rule.count && !self.raw {
            let written = match r.name {
                // `oRast5`, `vMisc4`: as the register table spells them.
                RegName::RastOut | RegName::Misc => {
                    crate::regs::Name(version, r.name.register(r.num)).to_string()
                }
                _ => format!("{}{}", r.name.spelling().trim_end_matches('#'), r.num),
            };
            return err(
                r.start,
                r.end,
                format!(
                    "register `{written}` does not exist in {version} (it has {} of them)",
                    rule.count
                ),
            );
        }
        Ok(())
    }

    pub(super) fn check_src(&self, s: &SrcParsed, opcode: Opcode) -> LResult<SrcParam> {
        let version = self.version.expect("version");
        self.check_reg(&s.reg)?;
        if s.reg.name == RegName::Loop && s.swizzle.is_some() && !self.raw {
            return err(s.reg.start, s.end, "`aL` takes no swizzle");
        }
        let legacy = modifiers(version).legacy_src;
        let (ss, se) = s.suffix_span;
        let modifier = match s.suffix {
            Suffix::None => {
                if s.comp {
                    if !legacy && !self.raw {
                        return err(
                            s.start,
                            s.end,
                            format!("the complement modifier `1 - reg` is only available in ps_1_x, not in {version}"),
                        );
                    }
                    if s.neg {
                        return err(s.start, s.end, "`-` cannot be combined with `1 - reg`");
                    }
                    SrcModifier::Comp
                } else if s.neg {
                    SrcModifier::Neg
                } else {
                    SrcModifier::None
                }
            }
            Suffix::Bias | Suffix::Bx2 | Suffix::X2 => {
                if !legacy && !self.raw {
                    return err(
                        ss,
                        se,
                        format!(
                            "this source modifier is only available in ps_1_x, not in {version}"
                        ),
                    );
                }
                match (s.suffix, s.neg) {
                    (Suffix::Bias, false) => SrcModifier::Bias,
                    (Suffix::Bias, true) => SrcModifier::BiasNeg,
                    (Suffix::Bx2, false) => SrcModifier::Sign,
                    (Suffix::Bx2, true) => SrcModifier::SignNeg,
                    (_, false) => SrcModifier::X2,
                    (_, true) => SrcModifier::X2Neg,
                }
            }
            Suffix::Dz | Suffix::Dw => {
                if !(self.raw || modifiers(version).dz_dw) {
                    return err(
                        ss,
                        se,
                        format!("`_dz`/`_dw` are only available in ps_1_4, not in {version}"),
                    );
                }
                if !matches!(opcode, Opcode::Tex | Opcode::TexCoord) && !self.raw {
                    return err(
                        ss,
                        se,
                        "`_dz`/`_dw` apply only to `texld` and `texcrd` sources",
                    );
                }
                if s.neg {
                    return err(s.start, s.end, "`-` cannot be combined with `_dz`/`_dw`");
                }
                if s.suffix == Suffix::Dz {
                    SrcModifier::Dz
                } else {
                    SrcModifier::Dw
                }
            }
            Suffix::Abs => {
                if !modifiers(version).abs && !self.raw {
                    return err(
                        ss,
                        se,
                        format!("`_abs` is only available in vs_3_0 and ps_3_0, not in {version}"),
                    );
                }
                if s.neg {
                    SrcModifier::AbsNeg
                } else {
                    SrcModifier::Abs
                }
            }
        };
        if s.suffix != Suffix::None && s.comp {
            return err(s.start, s.end, "only one source modifier is allowed");
        }
        let modifier = if s.not {
            if modifier != SrcModifier::None {
                return err(
                    s.start,
                    s.end,
                    "`!` cannot be combined with other modifiers",
                );
            }
            if !matches!(s.reg.name, RegName::ConstBool | RegName::Predicate) && !self.raw {
                return err(
                    s.start,
                    s.end,
                    "`!` applies only to boolean (`b#`) and predicate (`p0`) registers",
                );
            }
            SrcModifier::Not
        } else {
            modifier
        };
        Ok(SrcParam {
            reg: s.reg.name.register(s.reg.num),
            rel: self.rel_addr(&s.reg),
            swizzle: s.swizzle.map_or(SWIZZLE_IDENTITY, |c| c.swizzle()),
            modifier,
        })
    }
}
