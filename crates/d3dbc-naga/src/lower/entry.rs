//! The entry point's inputs: entry arguments for vertex inputs, varyings, texture
//! coordinates, fog and the fragment position, bound into their register slots.

use super::*;

impl Lower<'_> {
    pub(super) fn arg(&mut self, name: String, ty: Handle<Type>, binding: Binding) -> H {
        let idx = self.args.len() as u32;
        self.args.push(FunctionArgument {
            name: Some(name),
            ty,
            binding: Some(binding),
        });
        self.fun.e(Expression::FunctionArgument(idx))
    }

    /// Creates the entry arguments and the initial values of input slots. Long by
    /// design: one pass per input kind (vertex inputs, varyings by version, ps_1_x
    /// texture coordinates, fog, position, face), in argument order.
    pub(super) fn inputs(&mut self) {
        let keys: Vec<(usize, Key)> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| (i, s.key))
            .collect();
        let flat = self.o.pipeline.flat_shading;
        let interp_for = |u: DeclUsage| {
            if flat && u == DeclUsage::Color {
                Interpolation::Flat
            } else {
                Interpolation::Perspective
            }
        };
        let decls: Vec<(RegisterType, Decl)> = self.scan.inputs.clone();
        for (i, (kind, num)) in keys {
            let init: Option<H> = match (self.ps, kind) {
                (false, RegisterType::Input) => {
                    let d = decls.iter().find(|(k, d)| *k == kind && d.num == num);
                    self.itf.vertex_inputs.push(itf::VertexInput {
                        usage: d.map(|d| d.1.usage),
                        usage_index: d.map_or(0, |d| d.1.index),
                        register: num,
                        location: num as u32,
                    });
                    Some(self.arg(
                        format!("v{num}"),
                        self.t.vec4f,
                        Binding::Location {
                            location: num as u32,
                            interpolation: None,
                            sampling: None,
                            blend_src: None,
                            per_primitive: false,
                        },
                    ))
                }
                (true, RegisterType::Input) | (true, RegisterType::AddrOrTexture) => {
                    let mut ds: Vec<Decl> = decls
                        .iter()
                        .filter(|(k, d)| *k == kind && d.num == num)
                        .map(|d| d.1)
                        .collect();
                    if ds.is_empty() || !self.v.declares_varyings() {
                        let centroid = ds.first().is_some_and(|d| d.centroid);
                        let usage = if kind == RegisterType::Input {
                            DeclUsage::Color
                        } else {
                            DeclUsage::TexCoord
                        };
                        ds = vec![Decl {
                            num,
                            usage,
                            index: num as u8,
                            mask: 15,
                            centroid,
                        }];
                    }
                    let mut val: Option<H> = None;
                    for d in ds {
                        let location = itf::varying_location(d.usage, d.index);
                        let interp = interp_for(d.usage);
                        if !self.itf.varyings.iter().any(|v| v.location == location) {
                            self.itf.varyings.push(itf::Varying {
                                usage: d.usage,
                                usage_index: d.index,
                                location,
                                flat: interp == Interpolation::Flat,
                                centroid: d.centroid,
                            });
                        }
                        let a = self.arg(
                            format!("{}{}_{}", d.usage.name(), d.index, self.args.len()),
                            self.t.vec4f,
                            loc(location, interp, d.centroid),
                        );
                        val = Some(match val {
                            None => a,
                            Some(prev) => {
                                let m = self.mask_const(d.mask);
                                self.fun.select(m, a, prev)
                            }
                        });
                    }
                    if kind == RegisterType::AddrOrTexture {
                        if let Some(v) = val {
                            self.tc_args.insert(num, v);
                        }
                    }
                    val
                }
                (true, RegisterType::MiscType) if num == 0 => {
                    let fc = self.frag_coord();
                    if self.o.pipeline.vpos_half_pixel {
                        let h = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
                        Some(self.fun.sub(fc, h))
                    } else {
                        Some(fc)
                    }
                }
                (true, RegisterType::MiscType) => {
                    let ff = self.arg(
                        "front_facing".into(),
                        self.t.bool,
                        Binding::BuiltIn(BuiltIn::FrontFacing),
                    );
                    let s = if self.o.pipeline.vface_front_positive {
                        1.0
                    } else {
                        -1.0
                    };
                    let p = self.fun.f(s);
                    let n = self.fun.f(-s);
                    let v = self.fun.select(ff, p, n);
                    Some(self.fun.splat(v))
                }
                (false, RegisterType::RastOut) if num == 1 => Some(self.fun.splat_f(1.0)),
                _ => None,
            };
            if let Some(v) = init {
                match self.ptr(i) {
                    Some(p) => {
                        self.fun.store(p, v);
                    }
                    None => {
                        self.cache[i] = Some(v);
                    }
                }
            }
        }
        if !self.ps && self.o.pipeline.point_expansion {
            let u32_ty = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Scalar(naga::Scalar::U32),
                },
                Span::UNDEFINED,
            );
            let vi = self.arg(
                "vertex_index".into(),
                u32_ty,
                Binding::BuiltIn(BuiltIn::VertexIndex),
            );
            let one = self.fun.u(1);
            let x = self.fun.bin(B::And, vi, one);
            let y = self.fun.bin(B::ShiftRight, vi, one);
            let y = self.fun.bin(B::And, y, one);
            let x = self.fun.cast(x, ScalarKind::Float);
            let y = self.fun.cast(y, ScalarKind::Float);
            let (z, w) = (self.fun.f(0.0), self.fun.f(1.0));
            self.corner = Some(self.vec4([x, y, z, w]));
        }
        if self.ps && self.o.pipeline.fog == FogMode::Vertex && self.v.has_fixed_function_fog() {
            let location = itf::varying_location(DeclUsage::Fog, 0);
            self.fog_arg = Some(self.arg(
                "fog".into(),
                self.t.vec4f,
                loc(location, Interpolation::Perspective, false),
            ));
        }
    }

    pub(super) fn frag_coord(&mut self) -> H {
        if let Some(h) = self.fragcoord_arg {
            return h;
        }
        let h = self.arg(
            "frag_coord".into(),
            self.t.vec4f,
            Binding::BuiltIn(BuiltIn::Position { invariant: false }),
        );
        self.fragcoord_arg = Some(h);
        h
    }
}
