//! One instruction line: the name and its `_…` suffixes, then the operands its slots
//! expect, into one IR [`crate::ir::Item`].

use super::cursor::{eq_ic, Cur};
use super::literals::{parse_bool, parse_float, parse_int};
use super::operands::{parse_src, Suffix};
use super::{err, LResult, Parser};
use crate::asm::regs::{self, RegName};
use crate::asm::{ItemSource, Span};
use crate::ir::{Instruction, Item, SrcParam, MASK_ALL, SWIZZLE_IDENTITY};
use crate::opcode::{modifiers, Opcode};
use crate::token::{
    result_modifier, texld_controls, Comparison, DeclUsage, SamplerType, SrcModifier,
};
use crate::version::Version;

/// Instruction-name suffixes (`_sat`, `_pp`, `_x2`, `_gt`, usages of `dcl`…).
#[derive(Default)]
pub(super) struct NameMods {
    pub(super) modifiers: u8,
    pub(super) shift: Option<u8>,
    pub(super) comparison: Option<Comparison>,
    /// Usage (the raw `D3DDECLUSAGE` field, 0–31) and usage index.
    pub(super) usage: Option<(u8, u8)>,
    pub(super) sampler: Option<SamplerType>,
}

/// What an operand slot expects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Dst,
    Src,
    Float,
    Int,
    Bool,
}

impl<'a> Parser<'a> {
    pub(super) fn statement(&mut self, code: &'a str, text_line: u32) -> LResult<()> {
        let version = self.version.expect("version known");
        let mut cur = Cur {
            s: code.as_bytes(),
            pos: 0,
        };
        cur.ws();
        let mut ins_start = cur.pos;
        // Co-issue.
        let mut coissue = false;
        if cur.peek() == Some(b'+') {
            let p = cur.pos;
            cur.pos += 1;
            if !(self.raw || modifiers(version).coissue) {
                return err(
                    p,
                    p + 1,
                    format!("co-issue (`+`) is only available in ps_1_x, not in {version}"),
                );
            }
            coissue = true;
            cur.ws();
        }
        // Predicate.
        let mut predicate = None;
        let mut pred_span = None;
        if cur.peek() == Some(b'(') {
            let ps = cur.pos;
            cur.pos += 1;
            let src = parse_src(&mut cur)?;
            cur.ws();
            if !cur.eat(b')') {
                return err(ps, cur.pos.max(ps + 1), "expected `)` after the predicate");
            }
            if src.reg.name != RegName::Predicate {
                return err(
                    src.reg.start,
                    src.reg.end,
                    "the predicate must be the predicate register `p0`",
                );
            }
            if regs::rule(version, RegName::Predicate).is_none() && !self.raw {
                return err(
                    ps,
                    cur.pos,
                    format!("predication is not available in {version}"),
                );
            }
            if src.neg || src.comp || src.suffix != Suffix::None || src.reg.rel.is_some() {
                return err(
                    src.start,
                    src.end,
                    "a predicate takes only `!` and a swizzle",
                );
            }
            if src.reg.num != 0 {
                return err(
                    src.reg.start,
                    src.reg.end,
                    "the only predicate register is `p0`",
                );
            }
            let mut p = SrcParam::new(src.reg.name.register(0));
            p.swizzle = src.swizzle.map_or(SWIZZLE_IDENTITY, |c| c.swizzle());
            if src.not {
                p.modifier = SrcModifier::Not;
            }
            predicate = Some(p);
            pred_span = Some(self.span(ps, cur.pos));
            cur.ws();
            ins_start = cur.pos;
        }
        // Mnemonic.
        let (ms, me) = cur.word();
        if ms == me {
            let e = (ms + 1).min(code.len()).max(ms + 1);
            return err(ms, e, "expected an instruction");
        }
        let word_end = code[me..]
            .find(|c: char| c.is_whitespace())
            .map_or(code.len(), |i| me + i);
        if code[ms..word_end].parse::<Version>().is_ok() {
            return err(ms, word_end, "only one version statement is allowed");
        }
        if !(cur.at_end() || matches!(cur.peek(), Some(b' ' | b'\t' | b'\r' | 0x0B | 0x0C))) {
            return err(
                ms,
                cur.pos + 1,
                "unexpected character after the instruction name",
            );
        }
        let full = &cur.s[ms..me];
        let base_len = full.iter().position(|&c| c == b'_').unwrap_or(full.len());
        let base = &full[..base_len];
        let mut controls = 0u8;
        let opcode = match self.lookup(base) {
            Some(op) => op,
            None if (eq_ic(base, "texldp") || eq_ic(base, "texldb"))
                && (version.is_pixel() || self.raw)
                && version.major >= 2 =>
            {
                controls = if eq_ic(base, "texldp") {
                    texld_controls::PROJECT
                } else {
                    texld_controls::BIAS
                };
                Opcode::Tex
            }
            None => {
                return err(
                    ms,
                    ms + base_len,
                    format!(
                        "unknown instruction `{}` in {version}",
                        String::from_utf8_lossy(base)
                    ),
                );
            }
        };
        let is_dcl = opcode == Opcode::Dcl;
        let mods = self.name_mods(&cur, ms + base_len, me, is_dcl)?;
        // Comparison forms share the mnemonic.
        let opcode = match (opcode, mods.comparison.is_some()) {
            (Opcode::If, true) => Opcode::IfC,
            (Opcode::Break, true) => Opcode::BreakC,
            (op, true) if !op.has_comparison() => {
                return err(
                    ms,
                    me,
                    format!("`{}` takes no comparison suffix", op.mnemonic(version)),
                )
            }
            (op, false) if op.has_comparison() => {
                return err(
                    ms,
                    me,
                    format!(
                        "`{}` needs a comparison suffix (`_gt`, `_lt`, `_ge`, `_le`, `_eq`, `_ne`)",
                        op.mnemonic(version)
                    ),
                )
            }
            (op, _) => op,
        };
        if !opcode.is_legal(version) && !self.raw {
            let name = String::from_utf8_lossy(base);
            return err(
                ms,
                ms + base_len,
                format!("instruction `{name}` is not available in {version}"),
            );
        }
        let declaration = matches!(
            opcode,
            Opcode::Phase | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Dcl | Opcode::Label
        );
        if coissue && declaration && !self.raw {
            return err(ins_start, me, "this instruction cannot be co-issued");
        }
        if predicate.is_some() && declaration {
            return err(ins_start, me, "this instruction cannot be predicated");
        }
        let layout = opcode.layout(version);
        // Instruction modifiers.
        self.check_instruction_mods(opcode, &mods, layout.dst, ms, me)?;

        let mut ins = Instruction::new(opcode);
        ins.coissue = coissue;
        ins.predicate = predicate;
        if let Some(c) = mods.comparison {
            ins.controls = c as u8;
        } else {
            ins.controls = controls;
        }

        // Operand slots.
        let mut slots = [Slot::Src; 6];
        let mut n = 0;
        if layout.dst {
            slots[n] = Slot::Dst;
            n += 1;
        }
        let imm_slot = match opcode {
            Opcode::Def => Slot::Float,
            Opcode::DefI => Slot::Int,
            _ => Slot::Bool,
        };
        for _ in 0..layout.imms {
            slots[n] = imm_slot;
            n += 1;
        }
        for _ in 0..layout.srcs {
            slots[n] = Slot::Src;
            n += 1;
        }
        let slots = &slots[..n];

        let mut src_info = ItemSource {
            file: self.cur_file,
            line: self.cur_line,
            text_line,
            mnemonic: self.span(ms, me),
            predicate: pred_span,
            operands: [Span::default(); 6],
            operand_count: 0,
        };

        cur.ws();
        let mut k = 0usize;
        let mut op_ranges = [(0usize, 0usize); 6];
        if !cur.at_end() {
            loop {
                cur.ws();
                let os = cur.pos;
                if k >= slots.len() {
                    return err(
                        os,
                        code.trim_end().len().max(os + 1),
                        format!(
                            "too many operands: `{}` takes {}",
                            opcode.mnemonic(version),
                            describe_slots(slots)
                        ),
                    );
                }
                match slots[k] {
                    Slot::Dst => {
                        let d = self.parse_dst(&mut cur, &mods)?;
                        use crate::token::RegisterType as T;
                        let want = match opcode {
                            Opcode::Def => Some((
                                "a float constant (`c#`)",
                                matches!(d.reg.kind, T::Const | T::Const2 | T::Const3 | T::Const4),
                            )),
                            Opcode::DefI => {
                                Some(("an integer constant (`i#`)", d.reg.kind == T::ConstInt))
                            }
                            Opcode::DefB => {
                                Some(("a boolean constant (`b#`)", d.reg.kind == T::ConstBool))
                            }
                            _ => None,
                        };
                        if let Some((what, false)) = want {
                            return err(
                                os,
                                cur.pos,
                                format!("`{}` defines {what}", opcode.mnemonic(version)),
                            );
                        }
                        if want.is_some() && (d.rel.is_some() || d.mask != MASK_ALL) {
                            return err(
                                os,
                                cur.pos,
                                "a constant definition takes a plain register",
                            );
                        }
                        ins.dst = d;
                    }
                    Slot::Src => {
                        let s = parse_src(&mut cur)?;
                        let p = self.check_src(&s, opcode)?;
                        ins.push_src(p);
                    }
                    Slot::Float => {
                        ins.imm[k - 1] = parse_float(&mut cur)?;
                    }
                    Slot::Int => {
                        ins.imm[k - 1] = parse_int(&mut cur)?;
                    }
                    Slot::Bool => {
                        ins.imm[k - 1] = parse_bool(&mut cur)?;
                    }
                }
                src_info.operands[k] = self.span(os, cur.pos);
                op_ranges[k] = (os, cur.pos);
                k += 1;
                cur.ws();
                if cur.at_end() {
                    break;
                }
                if !cur.eat(b',') {
                    let (s, e) = (cur.pos, cur.pos + 1);
                    return err(s, e, "expected `,` between operands");
                }
            }
        }
        if k < slots.len() {
            let end = code.trim_end().len();
            return err(
                ms,
                end.max(me),
                format!(
                    "`{}` takes {}, found {k} operand{}",
                    opcode.mnemonic(version),
                    describe_slots(slots),
                    if k == 1 { "" } else { "s" }
                ),
            );
        }
        src_info.operand_count = k as u8;
        if opcode == Opcode::Sub && !version.is_ps_1_x() && !self.raw {
            // Outside ps_1_x Microsoft's assembler writes `sub a, b, c` as `add a, b, -c`
            // (raw keeps the `sub` token the listing came from: the runtime takes both).
            ins.opcode = Opcode::Add;
            let m = &mut ins.srcs[1].modifier;
            *m = match *m {
                SrcModifier::None => SrcModifier::Neg,
                SrcModifier::Neg => SrcModifier::None,
                SrcModifier::Abs => SrcModifier::AbsNeg,
                SrcModifier::AbsNeg => SrcModifier::Abs,
                other => other,
            };
        }
        if is_dcl {
            self.finish_dcl(&mut ins, &mods, ms, me, op_ranges[0])?;
        }
        self.items.push(Item::Instruction(ins));
        self.sources.push(src_info);
        Ok(())
    }

    /// Parses the `_…` suffixes of an instruction name.
    fn name_mods(&self, cur: &Cur, mut p: usize, end: usize, is_dcl: bool) -> LResult<NameMods> {
        let s = cur.s;
        let mut m = NameMods::default();
        while p < end {
            // s[p] == '_'
            let seg_start = p + 1;
            let mut q = seg_start;
            while q < end && s[q] != b'_' {
                q += 1;
            }
            let seg = &s[seg_start..q];
            let bad = |msg: String| err::<()>(p, q.max(p + 1), msg);
            let seg_l = |x: &str| eq_ic(seg, x);
            if seg.is_empty() {
                bad("empty modifier".into())?;
            }
            let set_mod = |bit: u8, m: &mut NameMods| -> LResult<()> {
                if m.modifiers & bit != 0 {
                    return err(p, q, "modifier given twice");
                }
                m.modifiers |= bit;
                Ok(())
            };
            if seg_l("sat") {
                set_mod(result_modifier::SATURATE, &mut m)?;
            } else if seg_l("pp") {
                set_mod(result_modifier::PARTIAL_PRECISION, &mut m)?;
            } else if seg_l("centroid") {
                set_mod(result_modifier::CENTROID, &mut m)?;
            } else if let Some(sh) = [
                ("x2", 1u8),
                ("x4", 2),
                ("x8", 3),
                ("d2", 15),
                ("d4", 14),
                ("d8", 13),
            ]
            .iter()
            .find(|(n, _)| seg_l(n))
            .map(|x| x.1)
            {
                if m.shift.is_some() {
                    bad("only one shift modifier (`_x2`, `_d2`, ...) is allowed".into())?;
                }
                m.shift = Some(sh);
            } else if let Some(c) = Comparison::ALL.iter().find(|c| seg_l(c.suffix())).copied() {
                if is_dcl || m.comparison.is_some() {
                    bad(format!(
                        "unexpected modifier `_{}`",
                        String::from_utf8_lossy(seg)
                    ))?;
                }
                m.comparison = Some(c);
            } else if is_dcl {
                if let Some(t) = [SamplerType::Tex2D, SamplerType::Cube, SamplerType::Volume]
                    .iter()
                    .find(|t| seg_l(t.name()))
                {
                    if m.sampler.is_some() || m.usage.is_some() {
                        bad("more than one declaration type".into())?;
                    }
                    m.sampler = Some(*t);
                } else {
                    let letters = seg.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                    let (name, digits) = seg.split_at(letters);
                    let mut digits = digits;
                    let mut usage = DeclUsage::ALL
                        .iter()
                        .find(|u| eq_ic(name, u.name()))
                        .map(|&u| u as u8);
                    // `dcl_usage22`, `dcl_usage153`: the printer's name for a usage field
                    // past the defined ones (14-31, two digits), then the index.
                    if self.raw && eq_ic(name, "usage") && digits.len() >= 2 {
                        let raw = (digits[0].wrapping_sub(b'0') as u32) * 10
                            + digits[1].wrapping_sub(b'0') as u32;
                        if raw < 32 && digits[..2].iter().all(u8::is_ascii_digit) {
                            usage = Some(raw as u8);
                            digits = &digits[2..];
                        }
                    }
                    let Some(usage) = usage else {
                        return err(
                            p,
                            q,
                            format!("unknown declaration `_{}`", String::from_utf8_lossy(seg)),
                        );
                    };
                    if !digits.iter().all(|c| c.is_ascii_digit()) {
                        bad(format!(
                            "unknown declaration `_{}`",
                            String::from_utf8_lossy(seg)
                        ))?;
                    }
                    let mut idx = 0u32;
                    for &d in digits {
                        idx = idx.saturating_mul(10).saturating_add((d - b'0') as u32);
                    }
                    if idx > 15 {
                        bad(format!("usage index {idx} out of range (0-15)"))?;
                    }
                    if m.sampler.is_some() || m.usage.is_some() {
                        bad("more than one declaration type".into())?;
                    }
                    m.usage = Some((usage, idx as u8));
                }
            } else {
                bad(format!(
                    "unknown instruction modifier `_{}`",
                    String::from_utf8_lossy(seg)
                ))?;
            }
            p = q;
        }
        Ok(m)
    }
}

fn describe_slots(slots: &[Slot]) -> String {
    let dst = slots.iter().filter(|s| **s == Slot::Dst).count();
    let src = slots.iter().filter(|s| **s == Slot::Src).count();
    let imm = slots.len() - dst - src;
    let mut parts = Vec::new();
    if dst > 0 {
        parts.push("a destination".to_string());
    }
    if imm > 0 {
        parts.push(format!("{imm} value{}", if imm == 1 { "" } else { "s" }));
    }
    if src > 0 {
        parts.push(format!("{src} source{}", if src == 1 { "" } else { "s" }));
    }
    if parts.is_empty() {
        "no operands".to_string()
    } else {
        parts.join(" and ")
    }
}
