//! Linking a translated vertex shader to a translated pixel shader, as a D3D9 driver
//! does when it builds a pipeline (DXVK, wined3d): the varyings move from the fixed map
//! of [`crate::interface::varying_location`] (which lets any shader pair link, but
//! spreads locations up to `16 + 16·usage + 15`, past the inter-stage limit of most
//! devices) to compact locations `0..N` for exactly what the pixel shader reads.
//!
//! What [`link`] does:
//! - every location-bound input of the pixel shader gets a compact location, in the
//!   order of its fixed location (TEXCOORD0–7, COLOR0–1, FOG, then the rest);
//! - the vertex shader's output struct keeps its built-ins (position, point size, clip
//!   distances) and, of its varyings, only those the pixel shader reads (D3D9 drops the
//!   others, as DXVK does), each with the pixel input's location, interpolation and
//!   sampling (centroid, flat colours), since the two stages must agree on both;
//! - a varying the pixel shader reads and the vertex shader does not produce reads
//!   D3D9's default, the one the CPU executor uses: `(1, 1, 1, 1)` for COLOR0 and
//!   `(0, 0, 0, 0)` for anything else, except that a vs_3_0 `POSITION0` output is
//!   also visible to a pixel shader that declares a `POSITION0` input. The vertex
//!   shader's FOG output keeps the fixed-function fog default where it writes no fog
//!   (below SM3 the specular alpha, 0 when oD1 is not written either; 1 for a vs_3_0),
//!   since the same location feeds the fog factor of pixel shaders below 3.0; a
//!   ps_3_0 `dcl_fog` input behind a vs_3_0 writing no fog reads that 1, where the CPU
//!   executor reads 0 (D3D9 leaves it undefined; no corpus pair does this);
//! - both interfaces' `varyings` list the linked locations; unused expressions,
//!   globals and functions of the vertex shader are dropped (naga's `compact`) and
//!   both modules are validated again.

use std::collections::BTreeMap;

use d3dbc::token::DeclUsage;
use naga::{
    Binding, BuiltIn, Constant, Expression, Handle, Interpolation, Literal, Sampling, Scalar,
    ShaderStage, Span, Statement, StructMember, Type, TypeInner, VectorSize,
};

use crate::interface::{self as itf, Varying};
use crate::{validate, Error, Translation};

/// Where a member of the linked vertex output struct takes its value from.
#[derive(Clone, Copy)]
enum Source {
    /// The component of the unlinked output struct at this index.
    Member(usize),
    /// A constant vector.
    Default([f32; 4]),
}

/// One varying the pixel shader reads.
#[derive(Clone, Copy)]
struct Read {
    /// Compact location.
    location: u32,
    interpolation: Option<Interpolation>,
    sampling: Option<Sampling>,
}

/// Links `vs` to `ps` (both from [`crate::translate`]): afterwards they use compact
/// varying locations `0..N`, `N` the number of distinct varyings `ps` reads, and agree
/// on every varying's interpolation and sampling. See the module docs for the rules.
///
/// The unlinked translations stay valid on their own (any vertex shader with any pixel
/// shader); a linked pair only works together. Linking a pair twice is an error.
pub fn link(vs: &mut Translation, ps: &mut Translation) -> Result<(), Error> {
    let stage = |t: &Translation| t.module.entry_points.first().map(|e| e.stage);
    if stage(vs) != Some(ShaderStage::Vertex) || stage(ps) != Some(ShaderStage::Fragment) {
        return Err(Error::Link("needs a vertex and a pixel shader".into()));
    }
    if vs.interface.linked || ps.interface.linked {
        return Err(Error::Link("already linked".into()));
    }
    let reads = link_pixel_inputs(ps);
    let vs3 = vs.interface.version.starts_with("vs_3");
    link_vertex_outputs(&mut vs.module, &reads, vs3)?;
    naga::compact::compact(&mut vs.module, naga::compact::KeepUnused::No);
    vs.info = validate(&vs.module)?;
    ps.info = validate(&ps.module)?;

    let linked: Vec<Varying> = reads
        .iter()
        .filter_map(|(&fixed, r)| {
            let (usage, usage_index) = itf::varying_at(fixed)?;
            Some(Varying {
                usage,
                usage_index,
                location: r.location,
                flat: r.interpolation == Some(Interpolation::Flat),
                centroid: r.sampling == Some(Sampling::Centroid),
            })
        })
        .collect();
    for v in &mut ps.interface.varyings {
        if let Some(r) = reads.get(&v.location) {
            v.location = r.location;
        }
    }
    vs.interface.varyings = linked;
    vs.interface.linked = true;
    ps.interface.linked = true;
    Ok(())
}

/// Gives the pixel shader's inputs compact locations; returns them by fixed location.
fn link_pixel_inputs(ps: &mut Translation) -> BTreeMap<u32, Read> {
    let args = &mut ps.module.entry_points[0].function.arguments;
    let mut reads: BTreeMap<u32, Read> = BTreeMap::new();
    for a in args.iter() {
        if let Some(Binding::Location {
            location,
            interpolation,
            sampling,
            ..
        }) = a.binding
        {
            reads.entry(location).or_insert(Read {
                location: 0,
                interpolation,
                sampling,
            });
        }
    }
    for (n, r) in reads.values_mut().enumerate() {
        r.location = n as u32;
    }
    for a in args.iter_mut() {
        if let Some(Binding::Location { location, .. }) = &mut a.binding {
            *location = reads[location].location;
        }
    }
    reads
}

/// Rewrites the vertex shader's output struct to the linked varyings.
fn link_vertex_outputs(
    m: &mut naga::Module,
    reads: &BTreeMap<u32, Read>,
    vs3: bool,
) -> Result<(), Error> {
    let no_struct = || Error::Link("the vertex shader returns no output struct".into());
    let old_ty = m.entry_points[0]
        .function
        .result
        .as_ref()
        .ok_or_else(no_struct)?
        .ty;
    let TypeInner::Struct { members, .. } = &m.types[old_ty].inner else {
        return Err(no_struct());
    };
    let members = members.clone();
    let vec4f = m.types.insert(
        Type {
            name: None,
            inner: TypeInner::Vector {
                size: VectorSize::Quad,
                scalar: Scalar::F32,
            },
        },
        Span::UNDEFINED,
    );
    let position = members
        .iter()
        .position(|mb| matches!(mb.binding, Some(Binding::BuiltIn(BuiltIn::Position { .. }))));
    let by_location: BTreeMap<u32, usize> = members
        .iter()
        .enumerate()
        .filter_map(|(i, mb)| match mb.binding {
            Some(Binding::Location { location, .. }) => Some((location, i)),
            _ => None,
        })
        .collect();
    // New members: the position first, the linked varyings, then the other built-ins.
    let mut new: Vec<(StructMember, Source)> = Vec::new();
    let builtin = |i: usize| (members[i].clone(), Source::Member(i));
    new.extend(position.map(builtin));
    for (&fixed, r) in reads {
        let source = match by_location.get(&fixed) {
            Some(&i) => Source::Member(i),
            None => match (itf::varying_at(fixed), position) {
                (Some((DeclUsage::Position, 0)), Some(p)) if vs3 => Source::Member(p),
                (Some((u, i)), _) => Source::Default(d3dbc::regs::unwritten_varying(u as u8, i)),
                (None, _) => Source::Default([0.0; 4]),
            },
        };
        let name = itf::varying_at(fixed).map(|(u, i)| format!("{}{i}", u.name()));
        new.push((
            StructMember {
                name,
                ty: vec4f,
                binding: Some(Binding::Location {
                    location: r.location,
                    interpolation: r.interpolation,
                    sampling: r.sampling,
                    blend_src: None,
                    per_primitive: false,
                }),
                offset: 0,
            },
            source,
        ));
    }
    new.extend(
        (0..members.len())
            .filter(|&i| Some(i) != position && !by_location.values().any(|&j| j == i))
            .map(builtin),
    );
    let mut offset = 0;
    for (mb, _) in &mut new {
        mb.offset = offset;
        offset += crate::builder::io_member_size(&m.types[mb.ty].inner);
    }
    let new_ty = m.types.insert(
        Type {
            name: m.types[old_ty].name.clone(),
            inner: TypeInner::Struct {
                members: new.iter().map(|(mb, _)| mb.clone()).collect(),
                span: offset,
            },
        },
        Span::UNDEFINED,
    );

    // Default vectors as module constants (no emit needed where they are used).
    let mut defaults: BTreeMap<[u32; 4], Handle<Constant>> = BTreeMap::new();
    for (_, s) in &new {
        if let Source::Default(v) = *s {
            defaults.entry(v.map(f32::to_bits)).or_insert_with(|| {
                let comps = v
                    .iter()
                    .map(|&c| {
                        m.global_expressions
                            .append(Expression::Literal(Literal::F32(c)), Span::UNDEFINED)
                    })
                    .collect();
                let init = m.global_expressions.append(
                    Expression::Compose {
                        ty: vec4f,
                        components: comps,
                    },
                    Span::UNDEFINED,
                );
                m.constants.append(
                    Constant {
                        name: None,
                        ty: vec4f,
                        init,
                    },
                    Span::UNDEFINED,
                )
            });
        }
    }

    // Every return builds the new struct from the old one's components.
    let f = &mut m.entry_points[0].function;
    if let Some(r) = &mut f.result {
        r.ty = new_ty;
    }
    let olds: Vec<(Handle<Expression>, Vec<Handle<Expression>>)> = f
        .expressions
        .iter()
        .filter_map(|(h, e)| match e {
            Expression::Compose { ty, components } if *ty == old_ty => {
                Some((h, components.clone()))
            }
            _ => None,
        })
        .collect();
    let mut replaced: BTreeMap<Handle<Expression>, Handle<Expression>> = BTreeMap::new();
    for (h, comps) in olds {
        let components = new
            .iter()
            .map(|(_, s)| match *s {
                Source::Member(i) => comps[i],
                Source::Default(v) => f.expressions.append(
                    Expression::Constant(defaults[&v.map(f32::to_bits)]),
                    Span::UNDEFINED,
                ),
            })
            .collect();
        let n = f.expressions.append(
            Expression::Compose {
                ty: new_ty,
                components,
            },
            Span::UNDEFINED,
        );
        replaced.insert(h, n);
    }
    let mut stack: Vec<&mut naga::Block> = vec![&mut f.body];
    while let Some(block) = stack.pop() {
        for s in block.iter_mut() {
            match s {
                Statement::Return { value: Some(v) } if replaced.contains_key(v) => {
                    let n = replaced[v];
                    *s = Statement::Block(naga::Block::from_vec(vec![
                        Statement::Emit(naga::Range::new_from_bounds(n, n)),
                        Statement::Return { value: Some(n) },
                    ]));
                }
                Statement::Block(b) => stack.push(b),
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Switch { cases, .. } => {
                    stack.extend(cases.iter_mut().map(|c| &mut c.body))
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    stack.push(body);
                    stack.push(continuing);
                }
                _ => {}
            }
        }
    }
    Ok(())
}
