//! Texture lookups: sampling a stage with an implicit, biased, exact or gradient level,
//! ps_1_x texture coordinates, the stage's texture kind and depth writes.

use super::*;

impl Lower<'_> {
    pub(super) fn sample(&mut self, stage: u16, coord: H, level: Level) -> H {
        let (image, sampler, kind) = self.texture(stage);
        let (size, pat) = match kind {
            TextureKind::Tex2d => (VectorSize::Bi, [0, 1, 0, 0]),
            _ => (VectorSize::Tri, [0, 1, 2, 0]),
        };
        let c = self.fun.swz(coord, size, pat);
        let level = match level {
            Level::Auto if !self.ps => SampleLevel::Zero,
            Level::Auto => SampleLevel::Auto,
            Level::Bias(b) => SampleLevel::Bias(b),
            Level::Exact(l) => SampleLevel::Exact(l),
            Level::Grad(x, y) => {
                let gx = self.fun.swz(x, size, pat);
                let gy = self.fun.swz(y, size, pat);
                SampleLevel::Gradient { x: gx, y: gy }
            }
        };
        self.fun.e(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate: c,
            array_index: None,
            offset: None,
            level,
            depth_ref: None,
            clamp_to_edge: false,
        })
    }

    /// The interpolated texture coordinate of stage `n` (ps_1_x), projected as the
    /// pipeline state says.
    pub(super) fn texcoord(&mut self, n: u16, project: bool) -> H {
        let v = match self.tc_args.get(&n) {
            Some(&h) => h,
            None => self.zero4(),
        };
        let count = self.o.pipeline.projection(n as usize);
        if project && (2..=4).contains(&count) && self.stage_kind(n) != TextureKind::Cube {
            let d = self.fun.comp(v, count as u32 - 1);
            let d = self.fun.splat(d);
            self.fun.div(v, d)
        } else {
            v
        }
    }

    pub(super) fn stage_kind(&self, n: u16) -> TextureKind {
        self.o.pipeline.sm1_kind(n as usize)
    }

    pub(super) fn reg_of(&mut self, kind: RegisterType, num: u16) -> Result<H, Error> {
        self.reg_value(&SrcParam::new(d3dbc::Register::new(kind, num)))
    }

    pub(super) fn depth_write(&mut self, z: H, w: H) {
        let zero = self.fun.f(0.0);
        let one = self.fun.f(1.0);
        let is0 = self.fun.bin(B::Equal, w, zero);
        // Divide by 1 where the result is the 1 selected below: the same value, and no
        // 0/0 for WGSL compilers to fold into a NaN constant when z and w are constant.
        let safe = self.fun.select(is0, one, w);
        let q = self.fun.div(z, safe);
        let d = self.fun.select(is0, one, q);
        let d = self.fun.splat(d);
        if let Some(i) = self.slot(RegisterType::DepthOut, 0) {
            self.set_slot(i, d);
        }
    }
}

/// How a lookup picks its mip level.
pub(super) enum Level {
    Auto,
    Bias(H),
    Exact(H),
    Grad(H, H),
}
