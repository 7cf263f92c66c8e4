//! Texture lookups: sampling a stage with an implicit, biased, exact or gradient level,
//! ps_1_x texture coordinates and depth writes.

use super::*;

impl Emitter<'_> {
    pub(super) fn sample(&mut self, stage: u16, coord: u32, level: Level) -> Result<u32, Error> {
        let tex = self.texture(stage)?;
        let (it, sit, ct, n) = match tex.kind {
            TextureKind::Tex2d => (T::Img2D, T::SImg2D, T::V2F, 2),
            TextureKind::Cube => (T::ImgCube, T::SImgCube, T::V3F, 3),
            TextureKind::Volume => (T::Img3D, T::SImg3D, T::V3F, 3),
        };
        let img = self.load(it, tex.image);
        let smp = self.load(T::Sampler, tex.sampler);
        let si = self.op2(Op::SampledImage, sit, img, smp);
        let c = self.shuffle(ct, coord, &[0, 1, 2][..n]);
        let ty = self.m.ty(T::V4F);
        let id = self.m.id();
        match level {
            Level::Auto if self.ps => {
                inst(
                    &mut self.m.body,
                    Op::ImageSampleImplicitLod,
                    &[ty, id, si, c],
                );
            }
            Level::Auto => {
                let z = self.m.f(0.0);
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::LOD.bits(), z],
                );
            }
            Level::Bias(b) => {
                if !self.ps {
                    return Err(self.unsupported("biased sampling in a vertex shader"));
                }
                inst(
                    &mut self.m.body,
                    Op::ImageSampleImplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::BIAS.bits(), b],
                );
            }
            Level::Exact(l) => {
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::LOD.bits(), l],
                );
            }
            Level::Grad(x, y) => {
                let gx = self.shuffle(ct, x, &[0, 1, 2][..n]);
                let gy = self.shuffle(ct, y, &[0, 1, 2][..n]);
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::GRAD.bits(), gx, gy],
                );
            }
        }
        Ok(id)
    }

    pub(super) fn texcoord(&mut self, n: u16, project: bool) -> u32 {
        let v = match self.tc_args.get(n as usize) {
            Some(&h) if h != 0 => h,
            _ => self.zero4(),
        };
        let count = self.o.pipeline.projection(n as usize);
        if project
            && (2..=4).contains(&count)
            && self.o.pipeline.sm1_kind(n as usize) != TextureKind::Cube
        {
            let d = self.cf(v, count as u32 - 1);
            let d = self.splat(T::V4F, d);
            self.op2(Op::FDiv, T::V4F, v, d)
        } else {
            v
        }
    }

    pub(super) fn reg_of(&mut self, kind: RegisterType, num: u16) -> Result<u32, Error> {
        self.reg_value(&SrcParam::new(d3dbc::Register::new(kind, num)))
    }

    pub(super) fn depth_write(&mut self, z: u32, w: u32) {
        let zero = self.m.f(0.0);
        let one = self.m.f(1.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, w, zero);
        let q = self.op2(Op::FDiv, T::F32, z, w);
        let d = self.sel(T::F32, is0, one, q);
        let d = self.splat(T::V4F, d);
        if let Some(i) = self.slot(RegisterType::DepthOut, 0) {
            self.set_slot(i, d);
        }
    }
}

/// The level of detail a lookup samples at.
pub(super) enum Level {
    /// Implicit (pixel shaders; level 0 in a vertex shader).
    Auto,
    /// Implicit plus a bias.
    Bias(u32),
    /// This level.
    Exact(u32),
    /// From these gradients.
    Grad(u32, u32),
}
