//! Source operands: registers read through their swizzles, literals, constants,
//! inputs and relative addressing, with the source modifiers applied.

use d3dbc::ir::SrcParam;
use d3dbc::token::RegisterType;

use crate::interface::{Part, Sel};
use crate::text::{self, literal_vector, Expr};
use crate::Error;

use super::expr::{apply_modifier, group, is_const, modifier_value};
use super::Emitter;

impl Emitter {
    /// Source `s` at destination positions `pos`: each position reads the swizzle's
    /// letter there. Modifiers applied.
    pub fn src(&mut self, s: &SrcParam, pos: &[u8], idx: usize) -> Result<Expr, Error> {
        let comps: Vec<u8> = pos.iter().map(|&p| (s.swizzle >> (2 * p)) & 3).collect();
        if s.reg.kind == RegisterType::Temp && s.rel.is_none() {
            if let Some(&a) = self.folds.get(&(idx, s.reg.num)) {
                let e = self.value_at(a, &comps)?;
                return Ok(apply_modifier(e, s.modifier, false));
            }
        }
        // Literals (def) fold their modifier.
        if let Some(vals) = self.literal(s) {
            let mut out: Vec<f32> = comps
                .iter()
                .map(|&c| modifier_value(s.modifier, vals[c as usize]))
                .collect();
            if self.ps1 {
                for x in out.iter_mut() {
                    *x = x.clamp(-1.0, 1.0);
                }
                // ps_1_x reads def constants clamped too (the modifier comes after).
                out = comps
                    .iter()
                    .map(|&c| modifier_value(s.modifier, vals[c as usize].clamp(-1.0, 1.0)))
                    .collect();
            }
            if out.iter().any(|x| x.is_nan()) {
                return Err(self.unsupported(idx, "a NaN def constant (no HLSL literal spells it)"));
            }
            if out.len() > 1 && out.iter().all(|x| x.to_bits() == out[0].to_bits()) {
                let e = literal_vector(&out[..1]);
                return Ok(Expr { width: 1, ..e }.splat(out.len() as u8));
            }
            return Ok(literal_vector(&out));
        }
        let mut parts = Vec::with_capacity(comps.len());
        for &c in &comps {
            parts.push(self.part(s, c, idx)?);
        }
        let mut e = group(parts);
        if self.ps1 && is_const(s) {
            // ps_1_x reads float constants clamped to [-1, 1].
            e = Expr::atom(format!("clamp({}, -1, 1)", e.text), e.width);
        }
        Ok(apply_modifier(e, s.modifier, false))
    }

    /// The `def` values of a constant source, when it is one (not relatively addressed).
    fn literal(&self, s: &SrcParam) -> Option<[f32; 4]> {
        if s.rel.is_some() {
            return None;
        }
        match s.reg.kind {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(s.reg.kind, s.reg.num) as u16;
                self.a.float_def(n).map(|d| d.map(f32::from_bits))
            }
            _ => None,
        }
    }

    /// Component `c` of the register a source names.
    fn part(&mut self, s: &SrcParam, c: u8, idx: usize) -> Result<Part, Error> {
        let r = s.reg;
        let vec4 = |base: String| Part {
            base,
            base_width: 4,
            sel: Sel::Comp(c),
        };
        let prefix = if self.globals { "g_" } else { "" };
        let _ = prefix;
        Ok(match r.kind {
            _ if self.alias.as_ref().is_some_and(|a| a.0 == r) => vec4(
                self.alias
                    .as_ref()
                    .map_or_else(String::new, |a| a.1.clone()),
            ),
            RegisterType::Temp => {
                if s.rel.is_some() {
                    return Err(self.unsupported(idx, "a relatively addressed temporary"));
                }
                vec4(format!("r{}", r.num))
            }
            RegisterType::Input if s.rel.is_some() => {
                // v[aL + n], v[a0.x + n]: the declared input at that register, else 0.
                let rel = s.rel.unwrap_or(d3dbc::ir::RelAddr::A0_X);
                let index = self.rel_index(rel);
                let index = if r.num == 0 {
                    index
                } else {
                    format!("{index} + {}", r.num)
                };
                let mut chain = String::from("(float4)0");
                let mut regs: Vec<(u16, String)> = self
                    .inputs
                    .iter()
                    .filter(|f| f.reg.0 == RegisterType::Input && f.width == 4)
                    .map(|f| (f.reg.1, format!("i.{}", f.name)))
                    .collect();
                regs.dedup_by_key(|x| x.0);
                for (n, f) in regs.iter().rev() {
                    chain = format!("{index} == {n} ? {f} : {chain}");
                }
                vec4(format!("({chain})"))
            }
            RegisterType::Input | RegisterType::MiscType => {
                self.input_part(r.kind, r.num, c, idx)?
            }
            RegisterType::AddrOrTexture if self.v.is_pixel() => {
                if self.ps1 && self.v.minor < 4 {
                    vec4(format!("t{}", r.num))
                } else {
                    self.input_part(r.kind, r.num, c, idx)?
                }
            }
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(r.kind, r.num) as u16;
                if let Some(rel) = s.rel {
                    let arr = self.u.rel_array(n).cloned().ok_or_else(|| {
                        self.unsupported(idx, "a relative read outside every array")
                    })?;
                    let off = n as i32 - arr.base as i32;
                    let index = self.rel_index(rel);
                    let index = match off {
                        0 => index,
                        o if o > 0 => format!("{index} + {o}"),
                        o => format!("{index} - {}", -o),
                    };
                    vec4(format!("{}[{index}]", arr.name))
                } else {
                    match self.u.float_part(n, c) {
                        Some(p) => p,
                        None => return Err(self.unsupported(idx, "an undeclared float constant")),
                    }
                }
            }
            RegisterType::Predicate => vec4("p0".into()),
            RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::RastOut
            | RegisterType::ColorOut => {
                let f = self
                    .outputs
                    .iter()
                    .find(|f| f.reg == (r.kind, r.num) && f.mask & (1 << c) != 0)
                    .or_else(|| self.outputs.iter().find(|f| f.reg == (r.kind, r.num)))
                    .ok_or_else(|| {
                        self.unsupported(idx, "reading an output that is never written")
                    })?;
                Part {
                    base: format!("o.{}", f.name),
                    base_width: f.width,
                    sel: Sel::Comp(c),
                }
            }
            _ => return Err(self.unsupported(idx, "this source register")),
        })
    }

    /// The index a relative operand adds: the innermost loop's `aL`, or `a0.x`…
    fn rel_index(&self, rel: d3dbc::ir::RelAddr) -> String {
        match rel.reg.kind {
            RegisterType::Loop => self
                .loops
                .iter()
                .rev()
                .flatten()
                .next()
                .cloned()
                .unwrap_or_else(|| "aL".into()),
            _ => format!("a0.{}", text::XYZW[rel.component() as usize]),
        }
    }

    fn input_part(&self, kind: RegisterType, num: u16, c: u8, idx: usize) -> Result<Part, Error> {
        let f = self
            .inputs
            .iter()
            .find(|f| f.reg == (kind, num) && f.mask & (1 << c) != 0)
            .or_else(|| self.inputs.iter().find(|f| f.reg == (kind, num)))
            .ok_or_else(|| self.unsupported(idx, "an undeclared input register"))?;
        let c = if f.width == 1 { 0 } else { c.min(f.width - 1) };
        Ok(Part {
            base: format!("i.{}", f.name),
            base_width: f.width,
            sel: Sel::Comp(c),
        })
    }
}
