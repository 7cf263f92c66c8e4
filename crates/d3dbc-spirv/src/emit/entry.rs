//! The entry point's inputs: input variables for vertex inputs, varyings, texture
//! coordinates, fog and the fragment position, bound into their register slots; the
//! pixel inputs' compact locations when a pair is linked.

use super::*;

impl Emitter<'_> {
    pub(super) fn input_var(&mut self, t: T) -> u32 {
        let p = self.m.ptr(Sc::Input, t);
        let v = self.m.global(p, Sc::Input);
        self.io_vars.push(v);
        v
    }

    pub(super) fn output_var(&mut self, t: T) -> u32 {
        let p = self.m.ptr(Sc::Output, t);
        let v = self.m.global(p, Sc::Output);
        self.io_vars.push(v);
        v
    }

    /// Location and interpolation decorations of a varying variable; returns the word
    /// index of the location operand.
    pub(super) fn varying_decor(
        &mut self,
        var: u32,
        location: u32,
        flat: bool,
        centroid: bool,
    ) -> usize {
        self.m.decorate(var, Decoration::Location, &[location]);
        let w = self.m.dec.len() - 1;
        if flat {
            self.m.decorate(var, Decoration::Flat, &[]);
        } else if centroid {
            self.m.decorate(var, Decoration::Centroid, &[]);
        }
        w
    }

    /// A pixel input at fixed location `location`: its variable, loaded.
    pub(super) fn ps_input(&mut self, location: u32, flat: bool, centroid: bool) -> u32 {
        let var = self.input_var(T::V4F);
        let word = self.varying_decor(var, location, flat, centroid);
        self.loc_words.push(LocWord {
            fixed: location,
            word,
        });
        if let Some(r) = &mut self.reads {
            r.record(location, flat, centroid);
        }
        self.load(T::V4F, var)
    }

    pub(super) fn inputs(&mut self) {
        let flat = self.o.pipeline.flat_shading;
        for i in 0..self.slots.len() {
            let (kind, num) = (self.slots[i].kind, self.slots[i].num);
            let init: Option<u32> = match (self.ps, kind) {
                (false, RegisterType::Input) => {
                    let d = self
                        .scan
                        .inputs
                        .iter()
                        .find(|(k, d)| *k == kind && d.num == num)
                        .map(|d| d.1);
                    self.itf.vertex_inputs.push(itf::VertexInput {
                        usage: d.map(|d| d.usage),
                        usage_index: d.map_or(0, |d| d.index),
                        register: num,
                        location: num as u32,
                    });
                    let var = self.input_var(T::V4F);
                    self.m.decorate(var, Decoration::Location, &[num as u32]);
                    Some(self.load(T::V4F, var))
                }
                (true, RegisterType::Input) | (true, RegisterType::AddrOrTexture) => {
                    let first = self
                        .scan
                        .inputs
                        .iter()
                        .position(|(k, d)| *k == kind && d.num == num);
                    let single = first.is_none() || !self.v.declares_varyings();
                    let mut val: Option<u32> = None;
                    let n = self.scan.inputs.len();
                    let mut j = first.unwrap_or(0);
                    loop {
                        let d = if single {
                            let centroid = first.is_some_and(|f| self.scan.inputs[f].1.centroid);
                            Decl {
                                num,
                                usage: if kind == RegisterType::Input {
                                    DeclUsage::Color
                                } else {
                                    DeclUsage::TexCoord
                                },
                                index: num as u8,
                                mask: 15,
                                centroid,
                            }
                        } else {
                            if j >= n {
                                break;
                            }
                            let (k, d) = self.scan.inputs[j];
                            j += 1;
                            if k != kind || d.num != num {
                                continue;
                            }
                            d
                        };
                        let location = itf::varying_location(d.usage, d.index);
                        let is_flat = flat && d.usage == DeclUsage::Color;
                        if !self.itf.varyings.iter().any(|v| v.location == location) {
                            self.itf.varyings.push(itf::Varying {
                                usage: d.usage,
                                usage_index: d.index,
                                location,
                                flat: is_flat,
                                centroid: d.centroid,
                            });
                        }
                        let a = self.ps_input(location, is_flat, d.centroid && !is_flat);
                        val = Some(match val {
                            None => a,
                            Some(prev) => {
                                let m = self.mask_const(d.mask);
                                self.sel(T::V4F, m, a, prev)
                            }
                        });
                        if single {
                            break;
                        }
                    }
                    if kind == RegisterType::AddrOrTexture {
                        if let Some(v) = val {
                            self.tc_args[num as usize] = v;
                        }
                    }
                    val
                }
                (true, RegisterType::MiscType) if num == 0 => {
                    let fc = self.frag_coord();
                    if self.o.pipeline.vpos_half_pixel {
                        let h = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
                        Some(self.op2(Op::FSub, T::V4F, fc, h))
                    } else {
                        Some(fc)
                    }
                }
                (true, RegisterType::MiscType) => {
                    let var = self.input_var(T::Bool);
                    self.m
                        .decorate(var, Decoration::BuiltIn, &[BuiltIn::FrontFacing as u32]);
                    let ff = self.load(T::Bool, var);
                    let s = if self.o.pipeline.vface_front_positive {
                        1.0
                    } else {
                        -1.0
                    };
                    let (p, n) = (self.m.f(s), self.m.f(-s));
                    let v = self.sel(T::F32, ff, p, n);
                    Some(self.splat(T::V4F, v))
                }
                (false, RegisterType::RastOut) if num == 1 => Some(self.m.splat_f(1.0)),
                _ => None,
            };
            if let Some(v) = init {
                match self.slots[i].var {
                    0 => self.cache[i] = v,
                    p => self.store(p, v),
                }
            }
        }
        if !self.ps && self.o.pipeline.point_expansion {
            let var = self.input_var(T::U32);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::VertexIndex as u32]);
            let vi = self.load(T::U32, var);
            let one = self.m.u(1);
            let x = self.op2(Op::BitwiseAnd, T::U32, vi, one);
            let y = self.op2(Op::ShiftRightLogical, T::U32, vi, one);
            let y = self.op2(Op::BitwiseAnd, T::U32, y, one);
            let x = self.op1(Op::ConvertUToF, T::F32, x);
            let y = self.op1(Op::ConvertUToF, T::F32, y);
            let (z, w) = (self.m.f(0.0), self.m.f(1.0));
            self.corner = self.vec4([x, y, z, w]);
        }
        if self.ps && self.o.pipeline.fog == FogMode::Vertex && self.v.has_fixed_function_fog() {
            let location = itf::varying_location(DeclUsage::Fog, 0);
            self.fog_arg = self.ps_input(location, false, false);
        }
    }

    /// The fragment coordinate, loaded where it is needed.
    pub(super) fn frag_coord(&mut self) -> u32 {
        if self.fragcoord_var == 0 {
            let var = self.input_var(T::V4F);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::FragCoord as u32]);
            self.fragcoord_var = var;
        }
        self.load(T::V4F, self.fragcoord_var)
    }

    /// Gives the pixel inputs compact locations `0..N` (in fixed-location order,
    /// [`d3dbc::target::link`]) and rewrites their decorations; returns the reads for
    /// the vertex shader.
    pub(crate) fn link_pixel_inputs(&mut self) -> Vec<LinkRead> {
        let reads = self.reads.take().unwrap_or_default().compact();
        for lw in &self.loc_words {
            if let Some(l) = link::compact_location(&reads, lw.fixed) {
                self.m.dec[lw.word] = l;
            }
        }
        for v in &mut self.itf.varyings {
            if let Some(l) = link::compact_location(&reads, v.location) {
                v.location = l;
            }
        }
        self.itf.linked = true;
        reads
    }
}
