//! Module-scope resources: uniform blocks (float, integer, boolean, driver constants),
//! textures and samplers bound per stage, mask constants.

use super::*;

impl Emitter<'_> {
    pub(super) fn decorate_binding(&mut self, var: u32, binding: u32) {
        self.m
            .decorate(var, Decoration::DescriptorSet, &[itf::GROUP]);
        self.m.decorate(var, Decoration::Binding, &[binding]);
    }

    /// A uniform block `struct { array<elem, n> }` at `binding`.
    pub(super) fn uniform_block(
        &mut self,
        binding: u32,
        elem: T,
        n: u32,
    ) -> (u32, Option<itf::ConstantBuffer>) {
        let et = self.m.ty(elem);
        let len = self.m.u(n.max(1));
        let arr = self.m.id();
        inst(&mut self.m.glob, Op::TypeArray, &[arr, et, len]);
        self.m.decorate(arr, Decoration::ArrayStride, &[16]);
        let st = self.m.id();
        inst(&mut self.m.glob, Op::TypeStruct, &[st, arr]);
        self.m.decorate(st, Decoration::Block, &[]);
        inst(
            &mut self.m.dec,
            Op::MemberDecorate,
            &[st, 0, Decoration::Offset as u32, 0],
        );
        let p = self.m.ptr_to(Sc::Uniform, st);
        let var = self.m.global(p, Sc::Uniform);
        self.decorate_binding(var, binding);
        (
            var,
            Some(itf::ConstantBuffer {
                binding,
                registers: n,
            }),
        )
    }

    pub(super) fn stage_binding(&self, ps: u32, vs: u32) -> u32 {
        if self.ps {
            ps
        } else {
            vs
        }
    }

    pub(super) fn float_consts(&mut self) -> (u32, u32) {
        if let Some(c) = self.c_buf {
            return c;
        }
        let n = d3dbc::regs::float_constant_file(self.v, self.scan.max_const)
            .min(itf::MAX_FLOAT_CONSTANTS);
        let b = self.stage_binding(itf::PS_FLOAT_BINDING, itf::VS_FLOAT_BINDING);
        let (var, record) = self.uniform_block(b, T::V4F, n);
        self.itf.float_constants = record;
        self.c_buf = Some((var, n));
        (var, n)
    }

    pub(super) fn int_consts(&mut self) -> u32 {
        if self.i_buf == 0 {
            let b = self.stage_binding(itf::PS_INT_BINDING, itf::VS_INT_BINDING);
            let (var, record) = self.uniform_block(b, T::V4I, itf::INT_CONSTANTS);
            self.itf.int_constants = record;
            self.i_buf = var;
        }
        self.i_buf
    }

    pub(super) fn bool_consts(&mut self) -> u32 {
        if self.b_buf == 0 {
            let b = self.stage_binding(itf::PS_BOOL_BINDING, itf::VS_BOOL_BINDING);
            let (var, record) = self.uniform_block(b, T::V4U, itf::INT_CONSTANTS);
            self.itf.bool_constants = record;
            self.b_buf = var;
        }
        self.b_buf
    }

    /// Loads element `idx` (an id) of uniform block `var` of `elem`s.
    pub(super) fn uniform_elem(&mut self, var: u32, elem: T, idx: u32) -> u32 {
        let p = self.m.ptr(Sc::Uniform, elem);
        let zero = self.m.i(0);
        let id = self.pure(Op::AccessChain, p, [var, zero, idx]);
        self.load_const(elem, id)
    }

    /// `driver[i]` (vec4f).
    pub(super) fn driver(&mut self, i: u32) -> u32 {
        if self.d_buf == 0 {
            let (var, record) = self.uniform_block(itf::DRIVER_BINDING, T::V4F, driver::VEC4S);
            self.itf.driver = record;
            self.d_buf = var;
        }
        let idx = self.m.i(i as i32);
        self.uniform_elem(self.d_buf, T::V4F, idx)
    }

    pub(super) fn texture(&mut self, stage: u16) -> Result<Tex, Error> {
        let st = stage as usize;
        if st >= self.texs.len() {
            return Err(self.unsupported("sampler stage past every version's samplers"));
        }
        if let Some(t) = self.texs[st] {
            return Ok(t);
        }
        let kind = if self.ps1x {
            self.o.pipeline.sm1_kind(st)
        } else {
            match self.scan.sampler_type(stage) {
                Some(SamplerType::Cube) => TextureKind::Cube,
                Some(SamplerType::Volume) => TextureKind::Volume,
                _ => TextureKind::Tex2d,
            }
        };
        let it = match kind {
            TextureKind::Tex2d => T::Img2D,
            TextureKind::Cube => T::ImgCube,
            TextureKind::Volume => T::Img3D,
        };
        let base = if self.ps {
            itf::PS_TEXTURE_BASE
        } else {
            itf::VS_TEXTURE_BASE
        } + 2 * stage as u32;
        let ip = self.m.ptr(Sc::UniformConstant, it);
        let image = self.m.global(ip, Sc::UniformConstant);
        self.decorate_binding(image, base);
        let sp = self.m.ptr(Sc::UniformConstant, T::Sampler);
        let sampler = self.m.global(sp, Sc::UniformConstant);
        self.decorate_binding(sampler, base + 1);
        self.itf.samplers.push(itf::SamplerBinding {
            stage: stage as u32,
            kind,
            texture_binding: base,
            sampler_binding: base + 1,
        });
        let t = Tex {
            image,
            sampler,
            kind,
        };
        self.texs[st] = Some(t);
        Ok(t)
    }

    pub(super) fn mask_const(&mut self, mask: u8) -> u32 {
        let m = (mask & 15) as usize;
        if self.mask_consts[m] == 0 {
            let bits = [0, 1, 2, 3].map(|i| u32::from(mask & (1 << i) != 0));
            self.mask_consts[m] = self.m.vec4(T::V4B, bits);
        }
        self.mask_consts[m]
    }
}
