//! The ps_1_x rules: instructions with no shader model 2 equivalent (`tex*`,
//! `bem`, …) and the bump-environment uniforms they read.

use d3dbc::ir::{Instruction, SrcParam};
use d3dbc::opcode::Opcode;
use d3dbc::token::{SamplerType, SrcModifier};

use crate::text::{self, letters, mask_comps, Expr, Prec};
use crate::Error;

use super::expr::{projected, select};
use super::Emitter;

impl Emitter {
    /// ps_1_x instructions with no shader model 2 equivalent.
    pub(super) fn ps1_op(&mut self, idx: usize, ins: &Instruction) -> Result<(), Error> {
        let op = ins.opcode;
        let v = self.v;
        let n = ins.dst.reg.num;
        let comps = mask_comps(ins.dst.mask);
        let tc = |n: u16| format!("i.texcoord{n}");
        let sampler = |e: &Self, st: u16| -> Result<(String, SamplerType), Error> {
            e.u.samplers
                .get(&st)
                .cloned()
                .ok_or_else(|| e.unsupported(idx, "an undeclared sampler"))
        };
        let lookup = |name: &str, ty: SamplerType, coord: &str| match ty {
            SamplerType::Cube => format!("texCUBE({name}, ({coord}).xyz)"),
            SamplerType::Volume => format!("tex3D({name}, ({coord}).xyz)"),
            _ => format!("tex2D({name}, ({coord}).xy)"),
        };
        let value = match op {
            Opcode::Tex if v.minor >= 4 => {
                // texld r#, t#/r# (ps_1_4): the register is the coordinate; _dz/_dw divide.
                let (name, ty) = sampler(self, n)?;
                let src = ins.srcs[0];
                let c = self.src(
                    &SrcParam {
                        modifier: SrcModifier::None,
                        ..src
                    },
                    &[0, 1, 2, 3],
                    idx,
                )?;
                let coord = projected(&c, src.modifier).text;
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::Tex => {
                let (name, ty) = sampler(self, n)?;
                select(Expr::atom(lookup(&name, ty, &tc(n)), 4), &comps)
            }
            Opcode::TexCoord if v.minor >= 4 => {
                let src = ins.srcs[0];
                let c = self.src(
                    &SrcParam {
                        modifier: SrcModifier::None,
                        ..src
                    },
                    &[0, 1, 2, 3],
                    idx,
                )?;
                select(projected(&c, src.modifier), &comps)
            }
            Opcode::TexCoord => select(
                Expr::atom(format!("float4(saturate({}.xyz), 1)", tc(n)), 4),
                &comps,
            ),
            Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
                let (name, ty) = sampler(self, n)?;
                let pos: &[u8] = match op {
                    Opcode::TexReg2Ar => &[3, 0, 2],
                    Opcode::TexReg2Gb => &[1, 2, 2],
                    _ => &[0, 1, 2],
                };
                let sw = SrcParam {
                    swizzle: pos[0] | (pos[1] << 2) | (pos[2] << 4) | (3 << 6),
                    ..ins.srcs[0]
                };
                let c = self.src(&sw, &[0, 1, 2], idx)?;
                let coord = format!("float4({}, 1)", c.text);
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::TexDp3 => {
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                Expr::atom(format!("dot({}.xyz, {})", tc(n), s.text), 1)
            }
            Opcode::TexDp3Tex => {
                let (name, ty) = sampler(self, n)?;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                let coord = format!("float4(dot({}.xyz, {}), 0, 0, 0)", tc(n), s.text);
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::TexBem | Opcode::TexBemL => {
                let (name, ty) = sampler(self, n)?;
                let m = self.bump_matrix(n);
                let r = self.src(&ins.srcs[0], &[0], idx)?.at(Prec::Mul);
                let g = self.src(&ins.srcs[0], &[1], idx)?.at(Prec::Mul);
                let t = tc(n);
                let coord = format!(
                    "float2({t}.x + {m}.x * {r} + {m}.z * {g}, {t}.y + {m}.y * {r} + {m}.w * {g})"
                );
                let mut e = lookup(&name, ty, &coord);
                if op == Opcode::TexBemL {
                    let l = self.bump_luminance(n);
                    let b = self.src(&ins.srcs[0], &[2], idx)?.at(Prec::Mul);
                    e = format!("{e} * saturate({b} * {l}.x + {l}.y)");
                    select(Expr::new(e, Prec::Mul, 4), &comps)
                } else {
                    select(Expr::atom(e, 4), &comps)
                }
            }
            Opcode::Bem => {
                let m = self.bump_matrix(n);
                let ax = self.src(&ins.srcs[0], &[0], idx)?.at(Prec::Add);
                let ay = self.src(&ins.srcs[0], &[1], idx)?.at(Prec::Add);
                let bx = self.src(&ins.srcs[1], &[0], idx)?.at(Prec::Mul);
                let by = self.src(&ins.srcs[1], &[1], idx)?.at(Prec::Mul);
                let full = format!(
                    "float2({ax} + {m}.x * {bx} + {m}.z * {by}, {ay} + {m}.y * {bx} + {m}.w * {by})"
                );
                let sel: Vec<u8> = comps.iter().copied().filter(|&c| c < 2).collect();
                if sel == [0, 1] {
                    Expr::atom(full, 2)
                } else {
                    Expr::atom(format!("{full}.{}", letters(&sel)), sel.len() as u8)
                }
            }
            Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
                let row = if op == Opcode::TexM3x2Pad {
                    0
                } else {
                    match self.a.instructions.get(idx + 1).map(|x| x.opcode) {
                        Some(Opcode::TexM3x3Pad) => 0,
                        _ => 1,
                    }
                };
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                let c = text::XYZW[row];
                self.line(&format!("m3.{c} = dot({}.xyz, {});", tc(n), s.text));
                return Ok(());
            }
            Opcode::TexM3x2Tex | Opcode::TexM3x2Depth => {
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                self.line(&format!("m3.y = dot({}.xyz, {});", tc(n), s.text));
                if op == Opcode::TexM3x2Depth {
                    self.line("o.depth = m3.y == 0 ? 1 : m3.x / m3.y;");
                    return Ok(());
                }
                let (name, ty) = sampler(self, n)?;
                select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
            }
            Opcode::TexM3x3Tex | Opcode::TexM3x3 | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                self.line(&format!("m3.z = dot({}.xyz, {});", tc(n), s.text));
                match op {
                    Opcode::TexM3x3 => select(Expr::atom("float4(m3.xyz, 1)", 4), &comps),
                    Opcode::TexM3x3Tex => {
                        let (name, ty) = sampler(self, n)?;
                        select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
                    }
                    _ => {
                        let (name, ty) = sampler(self, n)?;
                        let eye = if op == Opcode::TexM3x3Spec {
                            self.src(&ins.srcs[1], &[0, 1, 2], idx)?.text
                        } else {
                            // The eye vector from the w of the three coordinates.
                            format!(
                                "float3({}.w, {}.w, {}.w)",
                                tc(n.saturating_sub(2)),
                                tc(n.saturating_sub(1)),
                                tc(n)
                            )
                        };
                        self.line(&format!("e = {eye};"));
                        self.uses_eye = true;
                        self.line(
                            "m3.xyz = dot(m3.xyz, m3.xyz) != 0 ? 2 * (m3.xyz * dot(m3.xyz, e)) / dot(m3.xyz, m3.xyz) - e : -e;",
                        );
                        select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
                    }
                }
            }
            _ => return Err(self.unsupported(idx, &format!("`{}`", op.mnemonic(v)))),
        };
        self.assign(ins, value, idx)
    }

    /// The uniform standing for stage `n`'s bump-environment matrix (a texture stage
    /// state in D3D9: `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11` in x, y, z, w).
    fn bump_matrix(&mut self, n: u16) -> String {
        let name = format!("BumpEnvMat{n}");
        if !self.u.names.contains(&name) {
            self.u.names.push(name.clone());
            self.u.decls.push_str(&format!(
                "float4 {name}; // D3DTSS_BUMPENVMAT00, 01, 10, 11 of stage {n} (a texture stage state in D3D9)\n"
            ));
        }
        name
    }

    /// The uniform standing for stage `n`'s `D3DTSS_BUMPENVLSCALE` (x) and
    /// `D3DTSS_BUMPENVLOFFSET` (y).
    fn bump_luminance(&mut self, n: u16) -> String {
        let name = format!("BumpEnvLum{n}");
        if !self.u.names.contains(&name) {
            self.u.names.push(name.clone());
            self.u.decls.push_str(&format!(
                "float2 {name}; // D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET of stage {n}\n"
            ));
        }
        name
    }
}
