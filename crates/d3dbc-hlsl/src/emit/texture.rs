//! Texture sampling of shader models 2 and 3: `texld`, `texldp`, `texldb`, `texldl`,
//! `texldd`.

use d3dbc::ir::Instruction;
use d3dbc::opcode::Opcode;
use d3dbc::token::SamplerType;

use crate::text::{mask_comps, Expr};
use crate::Error;

use super::expr::select;
use super::Emitter;

impl Emitter {
    /// `texld`/`texldp`/`texldb`/`texldl`/`texldd` (shader model 2 and 3).
    pub(super) fn sample(&mut self, ins: &Instruction, idx: usize) -> Result<Expr, Error> {
        let comps = mask_comps(ins.dst.mask);
        let s = ins.srcs[1].reg.num;
        let (name, ty) = self
            .u
            .samplers
            .get(&s)
            .cloned()
            .ok_or_else(|| self.unsupported(idx, "an undeclared sampler"))?;
        let (f, dims): (&str, u8) = match ty {
            SamplerType::Cube => ("texCUBE", 3),
            SamplerType::Volume => ("tex3D", 3),
            _ => ("tex2D", 2),
        };
        let coord_n: Vec<u8> = (0..dims).collect();
        let all: Vec<u8> = vec![0, 1, 2, 3];
        let call_text = match ins.opcode {
            Opcode::Tex => {
                let proj = ins.controls & 1 != 0;
                let bias = ins.controls & 2 != 0;
                if proj || bias {
                    let c = self.src(&ins.srcs[0], &all, idx)?;
                    let suffix = if proj { "proj" } else { "bias" };
                    format!("{f}{suffix}({name}, {})", c.text)
                } else {
                    let c = self.src(&ins.srcs[0], &coord_n, idx)?;
                    format!("{f}({name}, {})", c.text)
                }
            }
            Opcode::TexLdl => {
                let c = self.src(&ins.srcs[0], &all, idx)?;
                format!("{f}lod({name}, {})", c.text)
            }
            _ => {
                let c = self.src(&ins.srcs[0], &coord_n, idx)?;
                let dx = self.src(&ins.srcs[2], &coord_n, idx)?;
                let dy = self.src(&ins.srcs[3], &coord_n, idx)?;
                format!("{f}grad({name}, {}, {}, {})", c.text, dx.text, dy.text)
            }
        };
        // The sampler operand's swizzle picks the result's components.
        let sw = ins.srcs[1].swizzle;
        let sel: Vec<u8> = comps.iter().map(|&c| (sw >> (2 * c)) & 3).collect();
        let e = Expr::atom(call_text, 4);
        Ok(select(e, &sel))
    }
}
