//! The entry point's outputs: declaring the output struct, gathering output registers
//! on return (the deferred `texkill`, position fix-up, point expansion, fog, alpha
//! test, depth) and the result type.

use super::*;

impl Lower<'_> {
    /// Declares the outputs (struct members) before lowering.
    pub(super) fn declare_outputs(&mut self) {
        let flat = self.o.pipeline.flat_shading;
        let mut out = Vec::new();
        let push = |out: &mut Vec<Output>, name: String, ty, binding| {
            out.push(Output { binding, ty, name })
        };
        if self.ps {
            let colors: Vec<u16> = if self.ps1x {
                vec![0]
            } else {
                self.scan
                    .written
                    .iter()
                    .filter(|k| k.0 == RegisterType::ColorOut)
                    .map(|k| k.1)
                    .collect()
            };
            for c in colors {
                self.itf.color_outputs.push(c as u32);
                push(
                    &mut out,
                    format!("oC{c}"),
                    self.t.vec4f,
                    Binding::Location {
                        location: c as u32,
                        interpolation: None,
                        sampling: None,
                        blend_src: None,
                        per_primitive: false,
                    },
                );
            }
            if self.scan.writes_depth {
                self.itf.depth_output = true;
                push(
                    &mut out,
                    "oDepth".into(),
                    self.t.f32,
                    Binding::BuiltIn(BuiltIn::FragDepth),
                );
            }
        } else {
            push(
                &mut out,
                "position".into(),
                self.t.vec4f,
                Binding::BuiltIn(BuiltIn::Position { invariant: false }),
            );
            let mut vary: Vec<(DeclUsage, u8)> = itf::FIXED_VARYINGS.to_vec();
            if self.v.declares_varyings() {
                for d in &self.scan.outputs {
                    if (d.usage == DeclUsage::Position && d.index == 0)
                        || d.usage == DeclUsage::PSize
                    {
                        continue;
                    }
                    if !vary.contains(&(d.usage, d.index)) {
                        vary.push((d.usage, d.index));
                    }
                }
            }
            if self.psize_slot().is_some() {
                vary.push((DeclUsage::PSize, 0));
            }
            for (u, i) in vary {
                let location = itf::varying_location(u, i);
                let interp = if flat && u == DeclUsage::Color {
                    Interpolation::Flat
                } else {
                    Interpolation::Perspective
                };
                self.itf.varyings.push(itf::Varying {
                    usage: u,
                    usage_index: i,
                    location,
                    flat: interp == Interpolation::Flat,
                    centroid: false,
                });
                push(
                    &mut out,
                    format!("{}{}", u.name(), i),
                    self.t.vec4f,
                    loc(location, interp, false),
                );
            }
            if self.o.pipeline.point_size_builtin && self.psize_slot().is_some() {
                push(
                    &mut out,
                    "point_size".into(),
                    self.t.f32,
                    Binding::BuiltIn(BuiltIn::PointSize),
                );
            }
            let n = (self.o.pipeline.clip_planes as u32).min(driver::CLIP_PLANES);
            if n > 0 {
                let ty = self.m.types.insert(
                    Type {
                        name: None,
                        inner: TypeInner::Array {
                            base: self.t.f32,
                            size: ArraySize::Constant(NonZeroU32::new(n).unwrap()),
                            stride: 4,
                        },
                    },
                    Span::UNDEFINED,
                );
                push(
                    &mut out,
                    "clip".into(),
                    ty,
                    Binding::BuiltIn(BuiltIn::ClipDistances),
                );
            }
        }
        self.outputs = out;
    }

    pub(super) fn psize_slot(&self) -> Option<usize> {
        if self.v.declares_varyings() {
            let d = self
                .scan
                .outputs
                .iter()
                .find(|d| d.usage == DeclUsage::PSize)?;
            self.index.get(&(RegisterType::Output, d.num)).copied()
        } else {
            self.index.get(&(RegisterType::RastOut, 2)).copied()
        }
    }

    /// Below vs_3_0 the diffuse output `oD0` starts as the diffuse colour's default,
    /// `(1, 1, 1, 1)`, so the components a shader leaves unwritten read 1 (Wine
    /// `test_uninitialized_varyings`: `mov oD0.x, c0` with c0 = 0.5 draws 0xff7fffff on
    /// Windows); every other output register starts at 0, as the executor's.
    pub(super) fn output_defaults(&mut self) {
        if self.ps || self.v.declares_varyings() {
            return;
        }
        if let Some(i) = self.slot(RegisterType::AttrOut, 0) {
            let v = self.vec4_lit(d3dbc::regs::unwritten_varying(DeclUsage::Color as u8, 0));
            self.set_slot(i, v);
        }
    }

    pub(super) fn out_slot(&mut self, kind: RegisterType, num: u16) -> H {
        match self.slot(kind, num) {
            Some(i) => self.read_slot(i),
            None => self.zero4(),
        }
    }

    /// The vs_3_0 output register holding `(usage, index)`.
    pub(super) fn vs3_out(&mut self, u: DeclUsage, idx: u8) -> Option<H> {
        let d = *self
            .scan
            .outputs
            .iter()
            .find(|d| d.usage == u && d.index == idx)?;
        Some(self.out_slot(RegisterType::Output, d.num))
    }

    /// The shader's own position output (`oPos`, or a vs_3_0's `POSITION0` output),
    /// before point expansion and the fix-up: what user clip planes are tested against.
    fn shader_position(&mut self) -> H {
        if self.v.declares_varyings() {
            let outs = &self.scan.outputs;
            d3dbc::regs::vs3_position_output(outs.iter().map(|d| (d.usage as u8, d.index)))
                .map(|k| outs[k].num)
                .map(|n| self.out_slot(RegisterType::Output, n))
                .unwrap_or_else(|| self.fun.e(Expression::ZeroValue(self.t.vec4f)))
        } else {
            self.out_slot(RegisterType::RastOut, 0)
        }
    }

    /// Builds the output values and returns from the entry point (or a subroutine).
    /// Long by design: one pass over the output struct's members in declaration order,
    /// each member's D3D9 rule (position fix-up, point size, fog, colours with alpha
    /// test, depth) where it is built.
    pub(super) fn emit_return(&mut self) -> Result<(), Error> {
        if !self.in_entry {
            self.flush();
            self.fun.stmt(Statement::Return { value: None });
            return Ok(());
        }
        if let Some(k) = self.killed {
            // The deferred `texkill` (module docs of `lower`).
            let p = self.fun.e(Expression::GlobalVariable(k));
            let dead = self.fun.load(p);
            self.fun.stmt(Statement::If {
                condition: dead,
                accept: naga::Block::from_vec(vec![Statement::Kill]),
                reject: naga::Block::new(),
            });
        }
        let mut vals = Vec::with_capacity(self.outputs.len());
        let outs: Vec<(String, Binding)> = self
            .outputs
            .iter()
            .map(|o| (o.name.clone(), o.binding.clone()))
            .collect();
        let mut color0: Option<H> = None;
        for (name, binding) in outs {
            let v = if self.ps {
                match binding {
                    Binding::BuiltIn(BuiltIn::FragDepth) => {
                        let d = self.out_slot(RegisterType::DepthOut, 0);
                        self.fun.comp(d, 0)
                    }
                    Binding::Location { location, .. } => {
                        let mut c = if self.ps1x {
                            let r = self.out_slot(RegisterType::Temp, 0);
                            if self.o.semantics.ps1x_saturate_output {
                                self.fun.m1(M::Saturate, r)
                            } else {
                                r
                            }
                        } else {
                            self.out_slot(RegisterType::ColorOut, location as u16)
                        };
                        if location == 0 {
                            c = self.fog(c);
                            color0 = Some(c);
                        }
                        c
                    }
                    _ => self.zero4(),
                }
            } else {
                match binding {
                    Binding::BuiltIn(BuiltIn::Position { .. }) => self.position(),
                    Binding::BuiltIn(BuiltIn::PointSize) => {
                        let i = self.psize_slot().ok_or(self.unsupported("point size"))?;
                        let v = self.read_slot(i);
                        self.fun.comp(v, 0)
                    }
                    Binding::BuiltIn(BuiltIn::ClipDistances) => {
                        let p = self.shader_position();
                        let n = (self.o.pipeline.clip_planes as u32).min(driver::CLIP_PLANES);
                        let mut c = Vec::new();
                        for k in 0..n {
                            let pl = self.driver(driver::CLIP_PLANE + k);
                            c.push(self.dotz(p, pl, 4));
                        }
                        let ty = self.outputs.iter().find(|o| o.name == name).unwrap().ty;
                        self.fun.compose(ty, c)
                    }
                    _ => {
                        let (u, idx) = varying_of(&name);
                        self.vs_own(u, idx)
                    }
                }
            };
            vals.push(v);
        }
        if self.ps {
            self.alpha_test(color0);
        }
        let value = if self.outputs.is_empty() {
            None
        } else {
            let ty = self.out_struct_ty();
            Some(self.fun.compose(ty, vals))
        };
        self.fun.stmt(Statement::Return { value });
        Ok(())
    }

    /// The final position: the shader's own ([`Self::shader_position`]), moved to the
    /// corner of an expanded point, plus the pixel-centre fix-up.
    fn position(&mut self) -> H {
        let p = self.shader_position();
        let p = match self.corner {
            Some(c) => self.expand_point(p, c),
            None => p,
        };
        if self.o.pipeline.position_fixup {
            let fx = self.driver(driver::POS_FIXUP);
            let w = self.fun.comp(p, 3);
            let w = self.fun.splat(w);
            let off = self.fun.mul(fx, w);
            let z = self.fun.f(0.0);
            let (ox, oy) = (self.fun.comp(off, 0), self.fun.comp(off, 1));
            let off = self.vec4([ox, oy, z, z]);
            self.fun.add(p, off)
        } else {
            p
        }
    }

    /// The value of the vertex shader's own varying `(u, idx)`.
    fn vs_own(&mut self, u: DeclUsage, idx: u8) -> H {
        let sprite = self
            .corner
            .filter(|_| self.o.pipeline.point_sprites && u == DeclUsage::TexCoord);
        let v = if let Some(c) = sprite {
            Some(c)
        } else if self.v.declares_varyings() {
            self.vs3_out(u, idx)
        } else {
            match u {
                DeclUsage::TexCoord => Some(self.out_slot(RegisterType::Output, idx as u16)),
                // Written components, 0 in the others; an oD# never
                // written reads the default below.
                DeclUsage::Color if self.slot(RegisterType::AttrOut, idx as u16).is_some() => {
                    let c = self.out_slot(RegisterType::AttrOut, idx as u16);
                    Some(self.fun.m1(M::Saturate, c))
                }
                // oFog, else the specular alpha (D3D9 vertex fog), which
                // reads 0 where oD1 is not written: fully fogged (Wine
                // `fog_with_shader_test`, the CPU executor's rule).
                DeclUsage::Fog => {
                    if self.slot(RegisterType::RastOut, 1).is_some() {
                        let f = self.out_slot(RegisterType::RastOut, 1);
                        Some(self.fun.m1(M::Saturate, f))
                    } else if self.slot(RegisterType::AttrOut, 1).is_some() {
                        let c = self.out_slot(RegisterType::AttrOut, 1);
                        let a = self.fun.comp(c, 3);
                        let a = self.fun.m1(M::Saturate, a);
                        Some(self.fun.splat(a))
                    } else {
                        Some(self.zero4())
                    }
                }
                DeclUsage::PSize => self.psize_slot().map(|i| self.read_slot(i)),
                _ => None,
            }
        };
        match v {
            Some(v) => v,
            None if u == DeclUsage::Color && idx == 0 => self.fun.splat_f(1.0),
            None if u == DeclUsage::Fog => self.fun.splat_f(1.0),
            None => self.zero4(),
        }
    }

    /// The alpha test of a pixel shader's colour output `color0` (its alpha; 0 without
    /// one) against the driver's reference, killing the pixel where it fails.
    fn alpha_test(&mut self, color0: Option<H>) {
        if self.o.pipeline.alpha_test != CompareFunc::Always {
            let a = match color0 {
                Some(c) => self.fun.comp(c, 3),
                None => self.fun.f(0.0),
            };
            let r = self.driver(driver::ALPHA_REF);
            let r = self.fun.comp(r, 0);
            let pass = match self.o.pipeline.alpha_test {
                CompareFunc::Never => self.fun.b(false),
                f => {
                    let op = match f {
                        CompareFunc::Less => B::Less,
                        CompareFunc::Equal => B::Equal,
                        CompareFunc::LessEqual => B::LessEqual,
                        CompareFunc::Greater => B::Greater,
                        CompareFunc::NotEqual => B::NotEqual,
                        _ => B::GreaterEqual,
                    };
                    self.fun.bin(op, a, r)
                }
            };
            self.fun.stmt(Statement::If {
                condition: pass,
                accept: naga::Block::new(),
                reject: naga::Block::from_vec(vec![Statement::Kill]),
            });
        }
    }

    /// Moves the clip-space position `p` of an expanded point to corner `c`.
    pub(super) fn expand_point(&mut self, p: H, c: H) -> H {
        let ps = self.driver(driver::POINT_SIZE);
        let (def, lo, hi) = (
            self.fun.comp(ps, 0),
            self.fun.comp(ps, 1),
            self.fun.comp(ps, 2),
        );
        let size = match self.psize_slot() {
            Some(i) => {
                let v = self.read_slot(i);
                let v = self.fun.comp(v, 0);
                let zero = self.fun.f(0.0);
                let pos = self.fun.bin(B::Greater, v, zero);
                self.fun.select(pos, v, def)
            }
            None => def,
        };
        let size = self.fun.math(M::Clamp, size, Some(lo), Some(hi));
        let one = self.fun.f(1.0);
        let size = self.fun.math(M::Max, size, Some(one), None);
        // (corner − ½) · size · extent · w
        let half = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
        let d = self.fun.sub(c, half);
        let w = self.fun.comp(p, 3);
        let sw = self.fun.mul(size, w);
        let sw = self.fun.splat(sw);
        let d = self.fun.mul(d, sw);
        let ext = self.driver(driver::POINT_EXTENT);
        let (ex, ey) = (self.fun.comp(ext, 0), self.fun.comp(ext, 1));
        let z = self.fun.f(0.0);
        let ext = self.vec4([ex, ey, z, z]);
        let d = self.fun.mul(d, ext);
        self.fun.add(p, d)
    }

    pub(super) fn fog(&mut self, c: H) -> H {
        if !self.v.has_fixed_function_fog() || self.o.pipeline.fog == FogMode::None {
            return c;
        }
        let f = match self.o.pipeline.fog {
            FogMode::Vertex => match self.fog_arg {
                Some(a) => self.fun.comp(a, 0),
                None => self.fun.f(1.0),
            },
            mode => {
                let z = match self.o.pipeline.fog_depth {
                    FogDepth::Z => {
                        let fc = self.frag_coord();
                        self.fun.comp(fc, 2)
                    }
                    FogDepth::W => {
                        let fc = self.frag_coord();
                        // frag_coord.w is the interpolated 1/w.
                        let rw = self.fun.comp(fc, 3);
                        let one = self.fun.f(1.0);
                        self.fun.div(one, rw)
                    }
                };
                let p = self.driver(driver::FOG_PARAMS);
                match mode {
                    FogMode::Linear => {
                        let (s, e) = (self.fun.comp(p, 0), self.fun.comp(p, 1));
                        let num = self.fun.sub(e, z);
                        let den = self.fun.sub(e, s);
                        self.fun.div(num, den)
                    }
                    _ => {
                        let d = self.fun.comp(p, 2);
                        let dz = self.mulz1(d, z);
                        let dz = if mode == FogMode::Exp2 {
                            self.fun.mul(dz, dz)
                        } else {
                            dz
                        };
                        let n = self.fun.e(Expression::Unary {
                            op: UnaryOperator::Negate,
                            expr: dz,
                        });
                        self.fun.m1(M::Exp, n)
                    }
                }
            }
        };
        let f = self.fun.m1(M::Saturate, f);
        let fcol = self.driver(driver::FOG_COLOR);
        let fv = self.fun.splat(f);
        let mixed = self.fun.math(M::Mix, fcol, Some(c), Some(fv));
        let m = self.mask_const(7);
        self.fun.select(m, mixed, c)
    }

    pub(super) fn out_struct_ty(&mut self) -> Handle<Type> {
        let mut offset = 0;
        let members = self
            .outputs
            .iter()
            .map(|o| {
                let size = crate::builder::io_member_size(&self.m.types[o.ty].inner);
                let m = StructMember {
                    name: Some(o.name.clone()),
                    ty: o.ty,
                    binding: Some(o.binding.clone()),
                    offset,
                };
                offset += size;
                m
            })
            .collect();
        self.m.types.insert(
            Type {
                name: Some(if self.ps { "PsOut" } else { "VsOut" }.into()),
                inner: TypeInner::Struct {
                    members,
                    span: offset,
                },
            },
            Span::UNDEFINED,
        )
    }
}

fn varying_of(name: &str) -> (DeclUsage, u8) {
    for u in DeclUsage::ALL {
        if let Some(rest) = name.strip_prefix(u.name()) {
            if let Ok(i) = rest.parse::<u8>() {
                return (u, i);
            }
        }
    }
    (DeclUsage::TexCoord, 0)
}
