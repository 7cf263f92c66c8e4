//! Module-scope resources: private and uniform globals, the constant blocks (float,
//! integer, boolean, driver), textures and samplers bound per stage, mask constants.

use super::*;

impl Lower<'_> {
    pub(super) fn global(
        &mut self,
        name: &str,
        space: AddressSpace,
        binding: Option<u32>,
        ty: Handle<Type>,
    ) -> Handle<GlobalVariable> {
        self.m.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space,
                binding: binding.map(|b| ResourceBinding {
                    group: itf::GROUP,
                    binding: b,
                }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }

    pub(super) fn array_ty(&mut self, base: Handle<Type>, n: u32) -> Handle<Type> {
        self.m.types.insert(
            Type {
                name: None,
                inner: TypeInner::Array {
                    base,
                    size: ArraySize::Constant(NonZeroU32::new(n.max(1)).unwrap()),
                    stride: 16,
                },
            },
            Span::UNDEFINED,
        )
    }

    /// A uniform block of `n` vec4 registers at `binding`, and its interface record.
    pub(super) fn uniform_block(
        &mut self,
        name: &str,
        binding: u32,
        elem: Handle<Type>,
        n: u32,
    ) -> (Handle<GlobalVariable>, Option<itf::ConstantBuffer>) {
        let ty = self.array_ty(elem, n);
        let gv = self.global(name, AddressSpace::Uniform, Some(binding), ty);
        let record = itf::ConstantBuffer {
            binding,
            registers: n,
        };
        (gv, Some(record))
    }

    /// This stage's binding: the pixel or the vertex one.
    pub(super) fn stage_binding(&self, ps: u32, vs: u32) -> u32 {
        if self.ps {
            ps
        } else {
            vs
        }
    }

    pub(super) fn float_consts(&mut self) -> (Handle<GlobalVariable>, u32) {
        if let Some(c) = self.c_gv {
            return c;
        }
        // The executor's constant file (one rule, in the register table), at most
        // `MAX_FLOAT_CONSTANTS` registers (64 KiB, the uniform-buffer size every device
        // offers).
        let n = d3dbc::regs::float_constant_file(self.v, self.scan.max_const)
            .min(itf::MAX_FLOAT_CONSTANTS);
        let b = self.stage_binding(itf::PS_FLOAT_BINDING, itf::VS_FLOAT_BINDING);
        let (gv, record) = self.uniform_block("c", b, self.t.vec4f, n);
        self.itf.float_constants = record;
        self.c_gv = Some((gv, n));
        (gv, n)
    }

    pub(super) fn int_consts(&mut self) -> Handle<GlobalVariable> {
        if let Some(c) = self.i_gv {
            return c;
        }
        let b = self.stage_binding(itf::PS_INT_BINDING, itf::VS_INT_BINDING);
        let (gv, record) = self.uniform_block("i", b, self.t.vec4i, itf::INT_CONSTANTS);
        self.itf.int_constants = record;
        self.i_gv = Some(gv);
        gv
    }

    pub(super) fn bool_consts(&mut self) -> Handle<GlobalVariable> {
        if let Some(c) = self.b_gv {
            return c;
        }
        let b = self.stage_binding(itf::PS_BOOL_BINDING, itf::VS_BOOL_BINDING);
        let (gv, record) = self.uniform_block("b", b, self.t.vec4u, itf::INT_CONSTANTS);
        self.itf.bool_constants = record;
        self.b_gv = Some(gv);
        gv
    }

    /// `driver[i]` (vec4f).
    pub(super) fn driver(&mut self, i: u32) -> H {
        let gv = match self.d_gv {
            Some(g) => g,
            None => {
                let (g, record) =
                    self.uniform_block("driver", itf::DRIVER_BINDING, self.t.vec4f, driver::VEC4S);
                self.itf.driver = record;
                self.d_gv = Some(g);
                g
            }
        };
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex { base: p, index: i });
        self.fun.load(a)
    }

    pub(super) fn texture(&mut self, stage: u16) -> (H, H, TextureKind) {
        if !self.texs.contains_key(&stage) {
            let kind = if self.ps1x {
                self.o.pipeline.sm1_kind(stage as usize)
            } else {
                match self.scan.sampler_type(stage) {
                    Some(SamplerType::Cube) => TextureKind::Cube,
                    Some(SamplerType::Volume) => TextureKind::Volume,
                    _ => TextureKind::Tex2d,
                }
            };
            let dim = match kind {
                TextureKind::Tex2d => ImageDimension::D2,
                TextureKind::Cube => ImageDimension::Cube,
                TextureKind::Volume => ImageDimension::D3,
            };
            let ity = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Image {
                        dim,
                        arrayed: false,
                        class: ImageClass::Sampled {
                            kind: ScalarKind::Float,
                            multi: false,
                        },
                    },
                },
                Span::UNDEFINED,
            );
            let sty = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Sampler { comparison: false },
                },
                Span::UNDEFINED,
            );
            let base = if self.ps {
                itf::PS_TEXTURE_BASE
            } else {
                itf::VS_TEXTURE_BASE
            } + 2 * stage as u32;
            let image = self.global(&format!("t{stage}"), AddressSpace::Handle, Some(base), ity);
            let sampler = self.global(
                &format!("s{stage}"),
                AddressSpace::Handle,
                Some(base + 1),
                sty,
            );
            self.itf.samplers.push(itf::SamplerBinding {
                stage: stage as u32,
                kind,
                texture_binding: base,
                sampler_binding: base + 1,
            });
            self.texs.insert(
                stage,
                Tex {
                    image,
                    sampler,
                    kind,
                },
            );
        }
        let t = &self.texs[&stage];
        let (i, s, k) = (t.image, t.sampler, t.kind);
        let ie = self.fun.e(Expression::GlobalVariable(i));
        let se = self.fun.e(Expression::GlobalVariable(s));
        (ie, se, k)
    }

    pub(super) fn mask_const(&mut self, mask: u8) -> H {
        let m = (mask & 15) as usize;
        let c = match self.mask_consts[m] {
            Some(c) => c,
            None => {
                let comps = (0..4)
                    .map(|i| {
                        self.m.global_expressions.append(
                            Expression::Literal(naga::Literal::Bool(mask & (1 << i) != 0)),
                            Span::UNDEFINED,
                        )
                    })
                    .collect();
                let init = self.m.global_expressions.append(
                    Expression::Compose {
                        ty: self.t.vec4b,
                        components: comps,
                    },
                    Span::UNDEFINED,
                );
                let c = self.m.constants.append(
                    naga::Constant {
                        name: None,
                        ty: self.t.vec4b,
                        init,
                    },
                    Span::UNDEFINED,
                );
                self.mask_consts[m] = Some(c);
                c
            }
        };
        self.fun.e(Expression::Constant(c))
    }
}
