//! Declarations: the `dcl` token of a usage or sampler type, and what each version
//! may declare.

use super::statements::NameMods;
use super::{err, LResult, Parser};
use crate::ir::{DeclToken, Instruction};
use crate::opcode::modifiers;
use crate::token::SamplerType;

impl<'a> Parser<'a> {
    /// Fills the `dcl` token and checks what may be declared in this version.
    pub(super) fn finish_dcl(
        &self,
        ins: &mut Instruction,
        m: &NameMods,
        ms: usize,
        me: usize,
        (os, oe): (usize, usize),
    ) -> LResult<()> {
        let version = self.version.expect("version");
        let reg = ins.dst.reg;
        use crate::token::RegisterType as T;
        let is_sampler = reg.kind == T::Sampler;
        if is_sampler {
            if m.usage.is_some() {
                return err(ms, me, "a sampler is declared with a texture type (`dcl_2d`, `dcl_cube`, `dcl_volume`)");
            }
            let ty = match m.sampler {
                Some(t) => t,
                None if version.is_pixel() => SamplerType::Unknown,
                None => {
                    return err(
                        ms,
                        me,
                        "a vertex shader sampler needs a texture type (`dcl_2d`, `dcl_cube`, `dcl_volume`)",
                    )
                }
            };
            if ins.dst.modifiers != 0 && !modifiers(version).sampler_dcl && !self.raw {
                return err(
                    ms,
                    me,
                    format!("sampler declarations take no modifiers in {version}"),
                );
            }
            ins.decl = DeclToken::sampler(ty);
            return Ok(());
        }
        if m.sampler.is_some() {
            return err(
                os,
                oe,
                "a texture type can only be declared for a sampler (`s#`)",
            );
        }
        let ok_reg = crate::regs::declarable(version, reg.kind);
        if !ok_reg && !self.raw {
            return err(
                os,
                oe,
                format!("this register cannot be declared in {version}"),
            );
        }
        ins.decl = match (version.is_vertex(), version.major, m.usage) {
            (_, _, Some((u, i))) if self.raw => usage_token(u, i),
            (true, _, Some((u, i))) => usage_token(u, i),
            // `dcl vFace` of a pixel-shader stream relabelled as a vertex shader.
            (true, _, None) if self.raw => DeclToken(0x8000_0000),
            (true, _, None) => return err(
                ms,
                me,
                "vertex shader declarations need a usage (`dcl_position`, `dcl_texcoord1`, ...)",
            ),
            (false, 2, Some(_)) => {
                return err(
                    ms,
                    me,
                    format!(
                        "{version} input declarations take no usage (write `dcl v0` or `dcl t0`)"
                    ),
                )
            }
            (false, _, Some((u, i))) => usage_token(u, i),
            (false, _, None) => DeclToken(0x8000_0000),
        };
        Ok(())
    }
}

/// The `dcl` token of a usage given by its raw field (a defined usage, or with
/// `raw` any 5-bit value) and index: [`DeclToken::usage`]'s layout.
fn usage_token(usage: u8, index: u8) -> DeclToken {
    DeclToken(0x8000_0000 | (usage as u32 & 0x1F) | ((index as u32 & 0xF) << 16))
}
