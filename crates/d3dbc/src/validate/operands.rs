//! Operand rules: E0102, E0103 (controls), E0104 (operand roles), E0201-E0206
//! (register files, indices, relative addressing), E0204 (read before write), E0301-E0309
//! (modifiers, swizzles, masks, predication), E0304 (co-issue).

use super::*;

impl State<'_> {
    pub(super) fn check_controls(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let c = ins.controls;
        if op.has_comparison() {
            if !(1..=6).contains(&c) {
                self.err(
                    Rule::E0102,
                    format_args!("{mn} has controls {c}, not a comparison (1 gt .. 6 le)"),
                );
            }
        } else if op == Opcode::Tex && v.major >= 2 {
            if c > 2 {
                self.err(
                    Rule::E0103,
                    format_args!("texld controls {c} is neither texldp (1) nor texldb (2)"),
                );
            }
        } else if c != 0 {
            self.err(
                Rule::E0103,
                format_args!("{mn} does not take controls (field is {c})"),
            );
        }
    }

    pub(super) fn check_coissue_predicate(&mut self, ins: &Instruction, class: SlotClass) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        if ins.coissue {
            let ps1 = v.is_ps_1_x();
            if !ps1 || class != SlotClass::Arithmetic {
                self.err(
                    Rule::E0304,
                    format_args!("{mn} cannot be co-issued (only ps_1_x arithmetic instructions)"),
                );
            } else {
                match self.prev_arith {
                    Some((mask, false)) => {
                        let m = ins.dst.mask;
                        let ok = m & mask == 0 && (m == 0x8 || mask == 0x8);
                        if !ok {
                            self.err(
                                Rule::E0304,
                                format_args!(
                                    "co-issued pair must write colour and alpha separately (masks 0x{mask:x} and 0x{m:x})"
                                ),
                            );
                        }
                    }
                    _ => self.err(
                        Rule::E0304,
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
                self.err(
                    Rule::E0309,
                    format_args!("{mn} cannot be predicated in {v}"),
                );
            }
        }
    }

    #[inline]
    pub(super) fn check_index(&mut self, r: Register, write: bool) {
        if (r.num as u32) < self.ctx.idx_lim[r.kind as usize] {
            return;
        }
        self.check_index_full(r, write);
    }

    #[inline(never)]
    pub(super) fn check_index_full(&mut self, r: Register, write: bool) {
        let v = self.v;
        let Some(f) = self.file(r.kind) else {
            let code = if write { Rule::E0202 } else { Rule::E0201 };
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
                Rule::E0203,
                format_args!("{} is out of range in {v} (has {count})", self.name(r)),
            );
        } else if is_const_float(r.kind) && v.is_vertex() && !v.is_software() && n >= 256 {
            let name = self.name(r);
            self.warn(
                Rule::E0208,
                format_args!("{name} needs a device with software vertex processing (hardware {v} has 256 constants)"),
            );
        }
    }

    #[inline]
    pub(super) fn check_src(&mut self, ins: &Instruction, f: &OpFacts, k: usize, src: &SrcParam) {
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
    pub(super) fn check_src_full(
        &mut self,
        ins: &Instruction,
        f: &OpFacts,
        k: usize,
        src: &SrcParam,
    ) {
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
                Rule::E0104,
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
                    Rule::E0104,
                    format_args!("sgn source {k} must be a scratch temporary register"),
                );
            }
            return;
        }
        self.check_read(ins, src);
    }

    #[inline(never)]
    pub(super) fn check_src_file(&mut self, r: Register) {
        let v = self.v;
        match self.file(r.kind) {
            Some(f) if f.read => self.check_index(r, false),
            Some(_) => {
                self.err(
                    Rule::E0201,
                    format_args!("{} cannot be read in {v}", self.name(r)),
                );
            }
            None => self.check_index(r, false),
        }
    }

    #[inline(never)]
    pub(super) fn check_src_rel(&mut self, src: &SrcParam) {
        let v = self.v;
        let r = src.reg;
        // Relative addressing.
        if let Some(rel) = src.rel {
            // Which files may be indexed, and by which address register: the register
            // table.
            if !crate::regs::rel_ok(v, r.kind, rel.reg.kind, false)
                || (v.major == 1 && rel.component() != 0)
                // aL is a scalar: Microsoft's assembler writes its token with the identity
                // swizzle and refuses `aL.x` ("no swizzles allowed").
                || (rel.reg.kind == RegisterType::Loop && rel.swizzle != crate::ir::SWIZZLE_IDENTITY)
            {
                self.err(
                    Rule::E0206,
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

    pub(super) fn check_src_mods(&mut self, ins: &Instruction, k: usize, src: &SrcParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let m = src.modifier;
        let r = src.reg.kind;
        let tex_coord = is_tex_coord(v, op, k);
        if !src_mod_ok(v, op, k, m, r) {
            self.err(
                Rule::E0301,
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
                Rule::E0305,
                format_args!("source {k} of {mn} needs a replicate swizzle (.x, .y, .z or .w)"),
            );
        }
        // Swizzles by version.
        if tex_coord && src.swizzle != 0xE4 {
            let s = src.swizzle;
            self.err(
                Rule::E0307,
                format_args!("source {k} of {mn} takes no swizzle in {v} (has 0x{s:02x})"),
            );
        } else if v.is_pixel() && v.code() <= 0x0200 && !needs_replicate {
            let s = src.swizzle;
            if !swizzle_ok(v, op, k, needs_replicate, s) {
                self.err(
                    Rule::E0307,
                    format_args!("swizzle 0x{s:02x} on source {k} of {mn} is not supported in {v}"),
                );
            }
        }
    }

    #[inline]
    pub(super) fn check_read(&mut self, ins: &Instruction, src: &SrcParam) {
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
    pub(super) fn temp_now_written(&mut self, n: usize) {
        if self.temp_written[n] != 0 {
            self.quiet_read[RegisterType::Temp as usize] |= 1 << n;
        }
    }

    #[inline(never)]
    pub(super) fn check_read_full(&mut self, ins: &Instruction, src: &SrcParam) {
        let r = src.reg;
        let n = r.num as usize;
        if r.kind == RegisterType::Temp {
            // SM1/SM2 only: the Temporary Register pages are those of vs_1_1/vs_2_0 and
            // ps_2_0; published vs_3_0 overrides read never-written temps.
            if n < 32 && self.v.major < 3 && self.temp_written[n] == 0 {
                let mn = Mn(ins.opcode, self.v);
                self.err(
                    Rule::E0204,
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
                        Rule::E0408,
                        format_args!("{mn} reads {} without a dcl", self.name(r)),
                    );
                } else {
                    self.err(
                        Rule::E0401,
                        format_args!("{mn} uses {} without a dcl", self.name(r)),
                    );
                }
            }
        }
    }

    #[inline]
    pub(super) fn check_dst(&mut self, ins: &Instruction, f: &OpFacts, d: &DstParam) {
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
    pub(super) fn check_dst_full(&mut self, ins: &Instruction, f: &OpFacts, d: &DstParam) {
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
            self.err(
                Rule::E0104,
                format_args!("{mn} cannot write {}", self.name(r)),
            );
        }
        // In vs_3_0 outputs must be declared.
        if v.is_vertex() && v.major >= 3 && r.kind == RegisterType::Output && d.rel.is_none() {
            let n = r.num as usize;
            if n >= 16 || self.dcl_output[n] == 0 {
                self.err(
                    Rule::E0401,
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
    pub(super) fn check_dst_file(&mut self, ins: &Instruction, r: Register) {
        let v = self.v;
        let mn = Mn(ins.opcode, v);
        match self.file(r.kind) {
            Some(f) if f.write => self.check_index(r, true),
            Some(_) => {
                self.err(
                    Rule::E0205,
                    format_args!("{mn} writes {}, which is read-only in {v}", self.name(r)),
                );
            }
            None => self.check_index(r, true),
        }
    }

    #[inline(never)]
    pub(super) fn check_dst_rel(&mut self, d: &DstParam) {
        let v = self.v;
        let r = d.reg;
        if let Some(rel) = d.rel {
            let ok = crate::regs::rel_ok(v, r.kind, rel.reg.kind, true)
                && rel.swizzle == crate::ir::SWIZZLE_IDENTITY;
            if !ok {
                self.err(
                    Rule::E0206,
                    format_args!(
                        "relative addressing of the destination {} is not allowed in {v}",
                        self.name(r)
                    ),
                );
            }
        }
    }

    pub(super) fn check_dst_mods(&mut self, ins: &Instruction, d: &DstParam) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let m = d.modifiers;
        let tex = op.slot_class() == SlotClass::Texture;
        if m & result_modifier::SATURATE != 0 && !sat_ok(v, tex) {
            self.err(
                Rule::E0302,
                format_args!("_sat is not allowed on {mn} in {v}"),
            );
        }
        if m & result_modifier::PARTIAL_PRECISION != 0 && !pp_ok(v) {
            self.err(Rule::E0302, format_args!("_pp is not allowed in {v}"));
        }
        if m & result_modifier::CENTROID != 0 && !centroid_ok(v, tex) {
            self.err(
                Rule::E0302,
                format_args!("_centroid is not allowed on {mn} in {v}"),
            );
        }
        if m & !7 != 0 {
            self.err(
                Rule::E0302,
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
                    Rule::E0303,
                    format_args!("result shift {s} is not allowed on {mn} in {v}"),
                );
            }
        }
        if d.mask == 0 {
            self.err(Rule::E0306, format_args!("{mn} has an empty write mask"));
            return;
        }
        // ps_1_1-1_3 write masks: .rgba, .rgb, .a (also .b for co-issue forms is not documented).
        if v.is_ps_1_x() && !v.is_ps_1_4() && !matches!(d.mask, 0xF | 0x7 | 0x8) {
            self.err(
                Rule::E0306,
                format_args!(
                    "write mask 0x{:x} on {mn}: ps_1_1-ps_1_3 allow only .rgba, .rgb, .a",
                    d.mask
                ),
            );
        }
    }

    /// Instruction-specific operand constraints.
    pub(super) fn specific(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let mask = ins.dst.mask;
        let srcs = ins.src();
        match op {
            Opcode::SinCos => {
                if !matches!(mask, 1..=3) {
                    self.err(
                        Rule::E0306,
                        format_args!("sincos writes .x, .y or .xy only (mask 0x{mask:x})"),
                    );
                }
                if !replicate(srcs[0].swizzle) {
                    self.err(
                        Rule::E0305,
                        format_args!("source 0 of sincos needs a replicate swizzle"),
                    );
                }
                if srcs.len() == 3 {
                    for (k, s) in srcs.iter().enumerate().skip(1) {
                        if !is_const_float(s.reg.kind) {
                            self.err(
                                Rule::E0104,
                                format_args!("sincos source {k} must be a constant register"),
                            );
                        }
                    }
                }
            }
            Opcode::Crs => {
                if mask & 8 != 0 || mask == 0 {
                    self.err(
                        Rule::E0306,
                        format_args!("crs writes a subset of .xyz (mask 0x{mask:x})"),
                    );
                }
                if srcs.iter().any(|s| s.reg == ins.dst.reg) {
                    self.err(
                        Rule::E0308,
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
                        Rule::E0306,
                        format_args!("{mn} must write mask 0x{want:x} (has 0x{mask:x})"),
                    );
                }
                let s1 = &srcs[1];
                if s1.swizzle != 0xE4 || s1.modifier != SrcModifier::None {
                    self.err(
                        Rule::E0308,
                        format_args!("{mn}: the matrix source takes no swizzle or modifier"),
                    );
                }
                if srcs[0].reg == ins.dst.reg && ins.dst.reg.kind == RegisterType::Temp {
                    self.err(
                        Rule::E0308,
                        format_args!("{mn}: destination cannot be the vector source"),
                    );
                }
            }
            Opcode::Nrm if ins.dst.reg.kind != RegisterType::Temp || srcs[0].reg == ins.dst.reg => {
                // nrm - vs/ps: "The dest and src registers cannot be the same. The dest
                // register must be a temporary register."
                self.err(
                    Rule::E0308,
                    format_args!("nrm writes a temporary other than its source"),
                );
            }
            Opcode::Bem if mask != 0x3 => {
                self.err(
                    Rule::E0306,
                    format_args!("bem writes .rg only (mask 0x{mask:x})"),
                );
            }
            Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl
                if v.major >= 2 && v.major == 2 && mask != 0xF =>
            {
                self.err(
                    Rule::E0306,
                    format_args!("{mn} in {v} writes the full .xyzw mask (mask 0x{mask:x})"),
                );
            }
            _ => {}
        }
    }
}
