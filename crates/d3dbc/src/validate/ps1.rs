//! ps_1_x rules: E0601-E0605 (texture/arithmetic order, texm3x* sequences, t#
//! numbering, ps_1_4 phases, texture register reuse) and E0704 (dependent reads).

use super::*;

impl State<'_> {
    /// ps_1_x ordering, texm3x* sequences, phase rules.
    pub(super) fn ps1(&mut self, ins: &Instruction, class: SlotClass) {
        let v = self.v;
        if !v.is_ps_1_x() {
            return;
        }
        let op = ins.opcode;
        let mn = Mn(op, v);
        if op == Opcode::Phase {
            if self.phase_seen {
                self.err(Rule::E0604, format_args!("second phase instruction"));
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
                        Rule::E0601,
                        format_args!("texture instruction {mn} after an arithmetic instruction"),
                    );
                }
            }
            SlotClass::Arithmetic => self.seen_arith = true,
            SlotClass::None => {}
        }
        if v.is_ps_1_4() {
            // texld/texcrd in phase 1 read t# only (r# coordinates are dependent reads).
            if matches!(op, Opcode::Tex) {
                if let Some(s) = ins.src().first() {
                    if s.reg.kind == RegisterType::Temp && !self.phase_seen {
                        self.err(
                            Rule::E0704,
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
                        Rule::E0605,
                        format_args!("t{dn} is written by a second texture instruction"),
                    );
                }
                self.tex_loaded |= 1 << dn;
            }
            if let Some(s) = ins.src().first() {
                if s.reg.kind == RegisterType::AddrOrTexture && s.reg.num >= dn {
                    self.err(
                        Rule::E0603,
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
                        Rule::E0602,
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
                            Rule::E0602,
                            format_args!("{mn} without the preceding pad instruction(s)"),
                        );
                    }
                    _ => {}
                }
            }
        } else if class == SlotClass::Arithmetic {
            if let Some((pad, ..)) = self.pad_expect.take() {
                self.err(
                    Rule::E0602,
                    format_args!("{} sequence not completed before {mn}", pad.mnemonic(v)),
                );
            }
        }
    }

    pub(super) fn arith_phase_reset(&mut self) {
        // ps_1_4: limits are per phase.
        self.arith = 0;
        self.tex = 0;
    }

    pub(super) fn dependent_reads(&mut self, ins: &Instruction, class: SlotClass) {
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
                    Rule::E0704,
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
}
