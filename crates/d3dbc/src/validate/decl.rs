//! Declaration rules: E0401-E0408 (dcl forms, duplicates, sampler types, order,
//! usages, undeclared reads), and def/defi/defb destinations.

use super::*;

impl State<'_> {
    /// `def`/`defi`/`defb` define whole registers: full mask, no modifier, shift or
    /// relative addressing (Microsoft's assembler writes nothing else; the listing
    /// cannot show anything else).
    pub(super) fn def_dst_plain(&mut self, ins: &Instruction) {
        let d = &ins.dst;
        let mn = Mn(ins.opcode, self.v);
        if d.mask != 0xF {
            self.err(
                Rule::E0306,
                format_args!("{mn} must write the whole register (mask 0x{:x})", d.mask),
            );
        }
        if d.modifiers != 0 {
            self.err(Rule::E0302, format_args!("{mn} takes no result modifier"));
        }
        if d.shift != 0 {
            self.err(Rule::E0303, format_args!("{mn} takes no result shift"));
        }
        if d.rel.is_some() {
            self.err(
                Rule::E0206,
                format_args!("{mn} cannot address its register relatively"),
            );
        }
    }

    pub(super) fn dcl(&mut self, ins: &Instruction) {
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
                Rule::E0302,
                format_args!("modifier 0x{m:x} not allowed on dcl of {name} in {v}"),
            );
        }
        if ins.dst.shift != 0 {
            self.err(
                Rule::E0303,
                format_args!("a result shift is not allowed on dcl of {name}"),
            );
        }
        if mask == 0 {
            self.err(
                Rule::E0306,
                format_args!("dcl of {name} has an empty write mask"),
            );
        }
        if r.kind != RegisterType::Sampler && d.sampler_type_raw() != 0 {
            self.err(
                Rule::E0402,
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
                        Rule::E0402,
                        format_args!("dcl of {name} takes no usage (token 0x{:08x})", d.0),
                    );
                }
                if self.dcl_misc & (1 << n) != 0 {
                    self.err(Rule::E0403, format_args!("{name} declared twice"));
                }
                self.dcl_misc |= 1 << n;
                self.quiet_read[RegisterType::MiscType as usize] |= 1 << n;
                return;
            }
            _ => {
                self.err(
                    Rule::E0402,
                    format_args!("{name} cannot be declared in {v}"),
                );
                return;
            }
        };
        self.check_index(r, false);
        let mut same_semantic = false;
        if usage_form {
            let Some(u) = d.usage_kind() else {
                self.err(
                    Rule::E0406,
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
            // One semantic names one declaration: "the same semantic cannot be used
            // multiple times in a declaration" (dcl_usage output, vs_3_0; dcl_semantics,
            // ps_3_0: a vector may not cross a register boundary), and a vertex input is
            // one vertex element. No shipped shader of the corpus does otherwise.
            if dup_sem {
                self.err(
                    Rule::E0403,
                    format_args!(
                        "semantic {}{idx} declared twice ({name} again): a semantic names \
                         one declaration, so it may not span two registers or repeat",
                        u.name()
                    ),
                );
            }
        } else if v.is_pixel() && (d.0 & 0x7FFF_FFFF) != 0 {
            self.err(
                Rule::E0402,
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
            if same_semantic {
                // Reported above.
            } else if prev != 0 && !splittable {
                self.err(Rule::E0403, format_args!("{name} declared twice"));
            } else if prev & mask != 0 && r.kind == RegisterType::Output {
                self.warn(
                    Rule::E0407,
                    format_args!("{name} declared again with an overlapping mask"),
                );
            } else if prev & mask != 0 {
                self.err(Rule::E0403, format_args!("{name} declared twice"));
            }
        }
    }

    pub(super) fn dcl_sampler(&mut self, ins: &Instruction) {
        let v = self.v;
        let r = ins.dst.reg;
        let n = r.num;
        let name = RegName(self.v, r);
        self.check_index(r, false);
        if ins.dst.modifiers != 0 && !(v.is_pixel() && v.major >= 3) {
            self.err(
                Rule::E0302,
                format_args!("sampler dcl of {name} takes no modifier in {v}"),
            );
        }
        if ins.decl.0 & 0x000F_001F != 0 {
            self.err(
                Rule::E0402,
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
                Rule::E0404,
                format_args!(
                    "dcl of {name}: texture type {} is not 2d, cube or volume",
                    ins.decl.sampler_type_raw()
                ),
            );
        }
        if n < 32 {
            if self.dcl_sampler & (1 << n) != 0 {
                self.err(Rule::E0403, format_args!("{name} declared twice"));
            }
            self.dcl_sampler |= 1 << n;
            self.quiet_read[RegisterType::Sampler as usize] |= 1 << n;
        }
        let _ = v;
    }
}
