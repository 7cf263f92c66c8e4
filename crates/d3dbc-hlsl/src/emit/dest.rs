//! Destinations: the statement writing an instruction's value to its register, with
//! the write mask, result modifiers, predicate and the ps_1_x range.

use d3dbc::ir::{DstParam, Instruction};
use d3dbc::token::{RegisterType, SrcModifier};

use crate::interface::Field;
use crate::text::{self, float_type, letters, mask_comps, Expr, Prec};
use crate::Error;

use super::expr::scalar_of;
use super::{Emitter, Helper};

impl Emitter {
    /// The statement writing `value` (of the mask's width, or a scalar) to `ins`'s
    /// destination, with its modifiers, predicate and the ps_1_x range.
    pub(super) fn assign(
        &mut self,
        ins: &Instruction,
        value: Expr,
        idx: usize,
    ) -> Result<(), Error> {
        let d = ins.dst;
        let comps = mask_comps(d.mask);
        let mut value = value;
        let shift = d.shift_value();
        if shift != 0 {
            let f = if shift > 0 {
                (1u32 << shift) as f32
            } else {
                1.0 / (1u32 << (-shift)) as f32
            };
            value = Expr::new(
                format!("{} * {}", value.at(Prec::Mul), text::float(f)),
                Prec::Mul,
                value.width,
            );
        }
        if d.saturate() {
            value = Expr::atom(format!("saturate({})", value.text), value.width);
        }
        if self.ps1 {
            self.helpers.insert(Helper::Ps1Range);
            value = Expr::atom(format!("ps1x({})", value.text), value.width);
        }
        if self.capturing {
            // A folded instruction: its value goes into the expression that reads it.
            self.captured = Some(value);
            return Ok(());
        }
        let target = self.dst_target(&d, &comps, idx)?;
        if let Some(p) = ins.predicate {
            let pc: Vec<u8> = comps.iter().map(|&c| (p.swizzle >> (2 * c)) & 3).collect();
            let not = if p.modifier == SrcModifier::Not {
                "!"
            } else {
                ""
            };
            if pc.iter().all(|&x| x == pc[0]) {
                self.line(&format!("if ({not}p0.{})", text::XYZW[pc[0] as usize]));
                self.indent += 1;
                self.write_target(&target, value);
                self.indent -= 1;
            } else {
                let n = comps.len() as u8;
                let cond = format!("{not}p0.{}", letters(&pc));
                let val = value.splat(n);
                let old = target.read_back();
                let sel = Expr::new(
                    format!("{cond} ? {} : {old}", val.at(Prec::Compare)),
                    Prec::Select,
                    n,
                );
                self.write_target(&target, sel);
            }
            return Ok(());
        }
        self.write_target(&target, value);
        Ok(())
    }

    fn write_target(&mut self, t: &Target, value: Expr) {
        match t {
            Target::One(lv) => self.line(&format!("{lv} = {};", value.text)),
            Target::Scalar(lv) => {
                let v = match scalar_of(&value, value.width) {
                    Some(s) => s.text,
                    None if value.width > 1 => format!("({}).x", value.text),
                    None => value.text,
                };
                self.line(&format!("{lv} = {v};"))
            }
            Target::Split(pieces, comps) => {
                // Write through a temporary when the mask spans several fields.
                let w = comps.len() as u8;
                let val = value.splat(w);
                self.line("{");
                self.indent += 1;
                self.line(&format!("{} v = {};", float_type(w), val.text));
                for (lv, cs) in pieces {
                    let sel: Vec<u8> = cs
                        .iter()
                        .map(|c| comps.iter().position(|x| x == c).unwrap_or(0) as u8)
                        .collect();
                    let sel = if w == 1 {
                        String::new()
                    } else {
                        format!(".{}", letters(&sel))
                    };
                    self.line(&format!("{lv} = v{sel};"));
                }
                self.indent -= 1;
                self.line("}");
            }
        }
    }

    fn dst_target(&mut self, d: &DstParam, comps: &[u8], idx: usize) -> Result<Target, Error> {
        let r = d.reg;
        let full = comps.len() == 4;
        let simple = |base: String| {
            if full {
                Target::One(base)
            } else {
                Target::One(format!("{base}.{}", letters(comps)))
            }
        };
        Ok(match r.kind {
            RegisterType::Temp => simple(format!("r{}", r.num)),
            RegisterType::AddrOrTexture if self.v.is_vertex() => simple("a0".into()),
            RegisterType::AddrOrTexture if self.ps1 => simple(format!("t{}", r.num)),
            RegisterType::Predicate => simple("p0".into()),
            RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::RastOut
            | RegisterType::ColorOut
            | RegisterType::DepthOut => {
                // Every field declared on the register that covers a written component
                // (one register may carry several semantics).
                let fields: Vec<&Field> = self
                    .outputs
                    .iter()
                    .filter(|f| f.reg == (r.kind, r.num))
                    .collect();
                if fields.is_empty() {
                    return Err(self.unsupported(idx, "an output without a declaration"));
                }
                let mut pieces: Vec<(String, Vec<u8>)> = Vec::new();
                for f in &fields {
                    let base = format!("o.{}", f.name);
                    let cs: Vec<u8> = if f.width == 1 {
                        // A scalar field takes x (or the first component written).
                        comps.iter().copied().take(1).collect()
                    } else {
                        comps
                            .iter()
                            .copied()
                            .filter(|&c| f.mask & (1 << c) != 0 || fields.len() == 1)
                            .collect()
                    };
                    if cs.is_empty() {
                        continue;
                    }
                    let lv = if f.width == 1 || cs.len() == 4 {
                        base
                    } else {
                        format!("{base}.{}", letters(&cs))
                    };
                    pieces.push((lv, cs));
                }
                let scalar_field = |lv: &str| {
                    self.outputs
                        .iter()
                        .any(|f| f.width == 1 && format!("o.{}", f.name) == lv)
                };
                match pieces.len() {
                    0 => {
                        return Err(
                            self.unsupported(idx, "an output component without a declaration")
                        )
                    }
                    1 if comps.len() > 1 && scalar_field(&pieces[0].0) => {
                        Target::Scalar(pieces[0].0.clone())
                    }
                    1 if pieces[0].1.len() == comps.len() => Target::One(pieces[0].0.clone()),
                    _ => Target::Split(pieces, comps.to_vec()),
                }
            }
            _ => return Err(self.unsupported(idx, "this destination register")),
        })
    }
}

/// A destination: one lvalue, or pieces across struct fields (`o.texcoord1.zw`, …).
pub(super) enum Target {
    One(String),
    /// A scalar field written from a wider value: its first component.
    Scalar(String),
    /// Fields each taking some of the written components (the mask's components).
    Split(Vec<(String, Vec<u8>)>, Vec<u8>),
}

impl Target {
    fn read_back(&self) -> String {
        match self {
            Target::One(s) | Target::Scalar(s) => s.clone(),
            Target::Split(p, _) => format!(
                "float{}({})",
                p.iter().map(|x| x.1.len()).sum::<usize>(),
                p.iter().map(|x| x.0.clone()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}
