//! The entry point's outputs: declaring the output variables, gathering output
//! registers on return (the deferred `texkill`, position fix-up, point expansion, fog,
//! alpha test, depth).

use super::*;

impl Emitter<'_> {
    pub(super) fn psize_slot(&self) -> Option<usize> {
        if self.v.declares_varyings() {
            let d = self
                .scan
                .outputs
                .iter()
                .find(|d| d.usage == DeclUsage::PSize)?;
            self.slot(RegisterType::Output, d.num)
        } else {
            self.slot(RegisterType::RastOut, 2)
        }
    }

    /// The unlinked vertex varyings in output order.
    pub(super) fn vs_varyings(&self, mut f: impl FnMut(DeclUsage, u8)) {
        for (u, i) in itf::FIXED_VARYINGS {
            f(u, i);
        }
        let mut extra = [(DeclUsage::Position, 0u8); regs::MAX_OUTPUTS];
        let mut n = 0;
        if self.v.declares_varyings() {
            for d in &self.scan.outputs {
                if (d.usage == DeclUsage::Position && d.index == 0) || d.usage == DeclUsage::PSize {
                    continue;
                }
                let pair = (d.usage, d.index);
                if !itf::FIXED_VARYINGS.contains(&pair)
                    && !extra[..n].contains(&pair)
                    && n < extra.len()
                {
                    extra[n] = pair;
                    n += 1;
                    f(d.usage, d.index);
                }
            }
        }
        if self.psize_slot().is_some() {
            f(DeclUsage::PSize, 0);
        }
    }

    pub(super) fn declare_outputs(&mut self) -> Result<(), Error> {
        let flat = self.o.pipeline.flat_shading;
        if self.ps {
            let push_color = |e: &mut Self, c: u32| {
                e.itf.color_outputs.push(c);
                let var = e.output_var(T::V4F);
                e.m.decorate(var, Decoration::Location, &[c]);
                e.outputs.push(Output {
                    kind: OutKind::Color(c),
                    var,
                });
            };
            if self.ps1x {
                push_color(self, 0);
            } else {
                let mut bits = self.scan.written.bits(RegisterType::ColorOut);
                while bits != 0 {
                    push_color(self, bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
            if self.scan.writes_depth {
                self.itf.depth_output = true;
                let var = self.output_var(T::F32);
                self.m
                    .decorate(var, Decoration::BuiltIn, &[BuiltIn::FragDepth as u32]);
                self.outputs.push(Output {
                    kind: OutKind::Depth,
                    var,
                });
            }
            return Ok(());
        }
        let var = self.output_var(T::V4F);
        self.m
            .decorate(var, Decoration::BuiltIn, &[BuiltIn::Position as u32]);
        self.outputs.push(Output {
            kind: OutKind::Position,
            var,
        });
        match self.link {
            None => {
                let mut pairs: [(DeclUsage, u8); 48] = [(DeclUsage::Position, 0); 48];
                let mut n = 0;
                self.vs_varyings(|u, i| {
                    if n < pairs.len() {
                        pairs[n] = (u, i);
                        n += 1;
                    }
                });
                // The varyings' one allocation (pushing grows it three times).
                self.itf.varyings.reserve_exact(n);
                for &(u, i) in &pairs[..n] {
                    let location = itf::varying_location(u, i);
                    let is_flat = flat && u == DeclUsage::Color;
                    self.itf.varyings.push(itf::Varying {
                        usage: u,
                        usage_index: i,
                        location,
                        flat: is_flat,
                        centroid: false,
                    });
                    let var = self.output_var(T::V4F);
                    self.varying_decor(var, location, is_flat, false);
                    self.outputs.push(Output {
                        kind: OutKind::Varying(VSrc::Own(u, i)),
                        var,
                    });
                }
            }
            Some(reads) => {
                for r in reads {
                    let mut own = false;
                    self.vs_varyings(|u, i| own |= itf::varying_location(u, i) == r.fixed);
                    let src = match (link::source(self.v, r.fixed, own), itf::varying_at(r.fixed)) {
                        (link::Source::Own, Some((u, i))) => VSrc::Own(u, i),
                        (link::Source::Own, None) => VSrc::Const([0.0; 4]),
                        (link::Source::Position, _) => VSrc::Position,
                        (link::Source::Default(c), _) => VSrc::Const(c),
                    };
                    self.itf.varyings.extend(r.varying());
                    let var = self.output_var(T::V4F);
                    self.varying_decor(var, r.location, r.flat, r.centroid);
                    self.outputs.push(Output {
                        kind: OutKind::Varying(src),
                        var,
                    });
                }
                self.itf.linked = true;
            }
        }
        if self.o.pipeline.point_size_builtin && self.psize_slot().is_some() {
            let var = self.output_var(T::F32);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::PointSize as u32]);
            self.outputs.push(Output {
                kind: OutKind::PointSize,
                var,
            });
        }
        let n = (self.o.pipeline.clip_planes as u32).min(driver::CLIP_PLANES);
        if n > 0 {
            self.clip = true;
            let f = self.m.ty(T::F32);
            let len = self.m.u(n);
            let arr = self.m.id();
            inst(&mut self.m.glob, Op::TypeArray, &[arr, f, len]);
            let p = self.m.ptr_to(Sc::Output, arr);
            let var = self.m.global(p, Sc::Output);
            self.io_vars.push(var);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::ClipDistance as u32]);
            self.outputs.push(Output {
                kind: OutKind::Clip(arr),
                var,
            });
        }
        Ok(())
    }

    /// Below vs_3_0 the diffuse output `oD0` starts as the diffuse colour's default,
    /// `(1, 1, 1, 1)`, so the components a shader leaves unwritten read 1 (Wine
    /// `test_uninitialized_varyings`: `mov oD0.x, c0` with c0 = 0.5 draws 0xff7fffff on
    /// Windows); every other output register starts at 0, as the executor's.
    pub(super) fn output_defaults(&mut self) {
        if self.v.is_pixel() || self.v.declares_varyings() {
            return;
        }
        if let Some(i) = self.slot(RegisterType::AttrOut, 0) {
            let v = self.vec4_lit(d3dbc::regs::unwritten_varying(DeclUsage::Color as u8, 0));
            self.set_slot(i, v);
        }
    }

    pub(super) fn out_slot(&mut self, kind: RegisterType, num: u16) -> u32 {
        match self.slot(kind, num) {
            Some(i) => self.read_slot(i),
            None => self.zero4(),
        }
    }

    pub(super) fn vs3_out(&mut self, u: DeclUsage, idx: u8) -> Option<u32> {
        let d = *self
            .scan
            .outputs
            .iter()
            .find(|d| d.usage == u && d.index == idx)?;
        Some(self.out_slot(RegisterType::Output, d.num))
    }

    /// The value of the vertex shader's own varying `(u, idx)`.
    pub(super) fn vs_own(&mut self, u: DeclUsage, idx: u8) -> u32 {
        let sprite = self.corner != 0 && self.o.pipeline.point_sprites && u == DeclUsage::TexCoord;
        let v = if sprite {
            Some(self.corner)
        } else if self.v.declares_varyings() {
            self.vs3_out(u, idx)
        } else {
            match u {
                DeclUsage::TexCoord => Some(self.out_slot(RegisterType::Output, idx as u16)),
                DeclUsage::Color if self.slot(RegisterType::AttrOut, idx as u16).is_some() => {
                    let c = self.out_slot(RegisterType::AttrOut, idx as u16);
                    Some(self.saturate4(c))
                }
                // oFog, else the specular alpha (D3D9 vertex fog), which reads 0 where
                // oD1 is not written: fully fogged (Wine `fog_with_shader_test`, the CPU
                // executor's rule).
                DeclUsage::Fog => {
                    if self.slot(RegisterType::RastOut, 1).is_some() {
                        let f = self.out_slot(RegisterType::RastOut, 1);
                        Some(self.saturate4(f))
                    } else if self.slot(RegisterType::AttrOut, 1).is_some() {
                        let c = self.out_slot(RegisterType::AttrOut, 1);
                        let a = self.cf(c, 3);
                        let (z, o) = (self.m.f(0.0), self.m.f(1.0));
                        let a = self.ext(T::F32, G::FClamp, &[a, z, o]);
                        Some(self.splat(T::V4F, a))
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
            None if u == DeclUsage::Color && idx == 0 => self.m.splat_f(1.0),
            None if u == DeclUsage::Fog => self.m.splat_f(1.0),
            None => self.zero4(),
        }
    }

    pub(super) fn saturate4(&mut self, v: u32) -> u32 {
        let (z, o) = (self.zero4(), self.m.splat_f(1.0));
        self.ext(T::V4F, G::FClamp, &[v, z, o])
    }

    /// The shader's own position output (`oPos`, or a vs_3_0's `POSITION0` output),
    /// before point expansion and the fix-up: what user clip planes are tested against.
    pub(super) fn shader_position(&mut self) -> u32 {
        if self.v.declares_varyings() {
            let outs = &self.scan.outputs;
            match d3dbc::regs::vs3_position_output(outs.iter().map(|d| (d.usage as u8, d.index))) {
                Some(k) => {
                    let n = outs[k].num;
                    self.out_slot(RegisterType::Output, n)
                }
                None => self.m.null(T::V4F),
            }
        } else {
            self.out_slot(RegisterType::RastOut, 0)
        }
    }

    pub(super) fn position(&mut self) -> u32 {
        let p = self.shader_position();
        let p = if self.corner != 0 {
            self.expand_point(p, self.corner)
        } else {
            p
        };
        if self.o.pipeline.position_fixup {
            let fx = self.driver(driver::POS_FIXUP);
            let w = self.cf(p, 3);
            let w = self.splat(T::V4F, w);
            let off = self.op2(Op::FMul, T::V4F, fx, w);
            let z = self.m.f(0.0);
            let (ox, oy) = (self.cf(off, 0), self.cf(off, 1));
            let off = self.vec4([ox, oy, z, z]);
            self.op2(Op::FAdd, T::V4F, p, off)
        } else {
            p
        }
    }

    pub(super) fn emit_return(&mut self) -> Result<(), Error> {
        if !self.in_entry {
            self.flush();
            inst(&mut self.m.body, Op::Return, &[]);
            self.terminated = true;
            return Ok(());
        }
        if self.killed != 0 {
            // The deferred `texkill` (module docs).
            let dead = self.load(T::Bool, self.killed);
            self.kill_if(dead, false);
        }
        let mut vals = [0u32; 64];
        let nout = self.outputs.len();
        if nout > vals.len() {
            return Err(self.unsupported("more than 64 outputs"));
        }
        let mut color0: Option<u32> = None;
        let mut position = 0;
        for (k, slot) in vals.iter_mut().enumerate().take(nout) {
            let o = self.outputs[k];
            let v = match o.kind {
                OutKind::Depth => {
                    let d = self.out_slot(RegisterType::DepthOut, 0);
                    self.cf(d, 0)
                }
                OutKind::Color(location) => {
                    let mut c = if self.ps1x {
                        let r = self.out_slot(RegisterType::Temp, 0);
                        if self.o.semantics.ps1x_saturate_output {
                            self.saturate4(r)
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
                OutKind::Position => {
                    position = self.position();
                    position
                }
                OutKind::PointSize => {
                    let i = self.psize_slot().ok_or(self.unsupported("point size"))?;
                    let v = self.read_slot(i);
                    self.cf(v, 0)
                }
                OutKind::Clip(arr) => self.clip_distances(arr),
                OutKind::Varying(src) => match src {
                    VSrc::Own(u, i) => self.vs_own(u, i),
                    VSrc::Position => position,
                    VSrc::Const(c) => self.m.vec4f(c),
                },
            };
            *slot = v;
        }
        if self.ps && self.o.pipeline.alpha_test != CompareFunc::Always {
            self.alpha_test(color0);
        }
        for (k, &v) in vals.iter().enumerate().take(nout) {
            let o = self.outputs[k];
            self.store(o.var, v);
            if o.kind == OutKind::Position && self.adjust_y {
                let p = self.m.ptr(Sc::Output, T::F32);
                let one = self.m.i(1);
                let acc = self.m.id();
                inst(&mut self.m.body, Op::AccessChain, &[p, acc, o.var, one]);
                let y = self.load(T::F32, acc);
                let ny = self.fneg(T::F32, y);
                self.store(acc, ny);
            }
        }
        inst(&mut self.m.body, Op::Return, &[]);
        self.terminated = true;
        Ok(())
    }

    /// The user clip distances of the shader's position against the driver's planes
    /// (into the array type `arr`). Out of line, as the other pipeline-state paths
    /// below: [`Self::emit_return`] runs once a shader, and its usual path is denser in
    /// the instruction cache without them.
    #[inline(never)]
    fn clip_distances(&mut self, arr: u32) -> u32 {
        let p = self.shader_position();
        let n = (self.o.pipeline.clip_planes as u32).min(driver::CLIP_PLANES);
        let mut c = [0u32; 8];
        for (k, slot) in c.iter_mut().enumerate().take(n as usize) {
            let pl = self.driver(driver::CLIP_PLANE + k as u32);
            *slot = self.dotz(p, pl, 4);
        }
        self.construct_ty(arr, &c[..n as usize])
    }

    /// The alpha test of a pixel shader's colour output `color0` (its alpha; 0 without
    /// one) against the driver's reference, killing the pixel where it fails.
    #[inline(never)]
    fn alpha_test(&mut self, color0: Option<u32>) {
        let a = match color0 {
            Some(c) => self.cf(c, 3),
            None => self.m.f(0.0),
        };
        let r = self.driver(driver::ALPHA_REF);
        let r = self.cf(r, 0);
        let pass = match self.o.pipeline.alpha_test {
            CompareFunc::Never => self.m.b(false),
            f => {
                let op = match f {
                    CompareFunc::Less => Op::FOrdLessThan,
                    CompareFunc::Equal => Op::FOrdEqual,
                    CompareFunc::LessEqual => Op::FOrdLessThanEqual,
                    CompareFunc::Greater => Op::FOrdGreaterThan,
                    CompareFunc::NotEqual => Op::FOrdNotEqual,
                    _ => Op::FOrdGreaterThanEqual,
                };
                self.op2(op, T::Bool, a, r)
            }
        };
        self.kill_if(pass, true);
    }

    #[inline(never)]
    pub(super) fn expand_point(&mut self, p: u32, c: u32) -> u32 {
        let ps = self.driver(driver::POINT_SIZE);
        let (def, lo, hi) = (self.cf(ps, 0), self.cf(ps, 1), self.cf(ps, 2));
        let size = match self.psize_slot() {
            Some(i) => {
                let v = self.read_slot(i);
                let v = self.cf(v, 0);
                let zero = self.m.f(0.0);
                let pos = self.op2(Op::FOrdGreaterThan, T::Bool, v, zero);
                self.sel(T::F32, pos, v, def)
            }
            None => def,
        };
        let size = self.ext(T::F32, G::FClamp, &[size, lo, hi]);
        let one = self.m.f(1.0);
        let size = self.ext(T::F32, G::FMax, &[size, one]);
        let half = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
        let d = self.op2(Op::FSub, T::V4F, c, half);
        let w = self.cf(p, 3);
        let sw = self.op2(Op::FMul, T::F32, size, w);
        let sw = self.splat(T::V4F, sw);
        let d = self.op2(Op::FMul, T::V4F, d, sw);
        let ext = self.driver(driver::POINT_EXTENT);
        let (ex, ey) = (self.cf(ext, 0), self.cf(ext, 1));
        let z = self.m.f(0.0);
        let ext = self.vec4([ex, ey, z, z]);
        let d = self.op2(Op::FMul, T::V4F, d, ext);
        self.op2(Op::FAdd, T::V4F, p, d)
    }

    pub(super) fn fog(&mut self, c: u32) -> u32 {
        if !self.v.has_fixed_function_fog() || self.o.pipeline.fog == FogMode::None {
            return c;
        }
        self.fogged(c)
    }

    /// `c` fogged by the pipeline's fog mode (one is set).
    #[inline(never)]
    fn fogged(&mut self, c: u32) -> u32 {
        let f = match self.o.pipeline.fog {
            FogMode::Vertex => match self.fog_arg {
                0 => self.m.f(1.0),
                a => self.cf(a, 0),
            },
            mode => {
                let z = match self.o.pipeline.fog_depth {
                    FogDepth::Z => {
                        let fc = self.frag_coord();
                        self.cf(fc, 2)
                    }
                    FogDepth::W => {
                        let fc = self.frag_coord();
                        let rw = self.cf(fc, 3);
                        let one = self.m.f(1.0);
                        self.op2(Op::FDiv, T::F32, one, rw)
                    }
                };
                let p = self.driver(driver::FOG_PARAMS);
                match mode {
                    FogMode::Linear => {
                        let (s, e) = (self.cf(p, 0), self.cf(p, 1));
                        let num = self.op2(Op::FSub, T::F32, e, z);
                        let den = self.op2(Op::FSub, T::F32, e, s);
                        self.op2(Op::FDiv, T::F32, num, den)
                    }
                    _ => {
                        let d = self.cf(p, 2);
                        let dz = self.mulz1(d, z);
                        let dz = if mode == FogMode::Exp2 {
                            self.op2(Op::FMul, T::F32, dz, dz)
                        } else {
                            dz
                        };
                        let n = self.fneg(T::F32, dz);
                        self.ext(T::F32, G::Exp, &[n])
                    }
                }
            }
        };
        let (z, o) = (self.m.f(0.0), self.m.f(1.0));
        let f = self.ext(T::F32, G::FClamp, &[f, z, o]);
        let fcol = self.driver(driver::FOG_COLOR);
        let fv = self.splat(T::V4F, f);
        let mixed = self.ext(T::V4F, G::FMix, &[fcol, c, fv]);
        let m = self.mask_const(7);
        self.sel(T::V4F, m, mixed, c)
    }
}
