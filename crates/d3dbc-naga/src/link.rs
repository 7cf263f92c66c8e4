//! Linking a translated vertex shader to a translated pixel shader, as a D3D9 driver
//! does when it builds a pipeline (DXVK, wined3d), by the rules of
//! [`d3dbc::target::link`] that `d3dbc_spirv::link` applies too: the varyings move from
//! the fixed map of [`crate::interface::varying_location`] to compact locations `0..N`
//! for exactly what the pixel shader reads, with the pixel inputs' interpolation and
//! sampling on the vertex outputs and D3D9's defaults for what the vertex shader does
//! not write.
//!
//! Here the two naga modules are rewritten: the pixel shader's entry arguments take
//! their compact locations; the vertex shader's output struct keeps its built-ins and
//! the linked varyings, every return building it from the old one; unused expressions,
//! globals and functions of the vertex shader are dropped (naga's `compact`) and both
//! modules are validated again.

use std::collections::BTreeMap;

use d3dbc::target::link::{self as rules, LinkRead, LinkReads};
use d3dbc::target::Error as TargetError;
use d3dbc::token::DeclUsage;
use d3dbc::Version;
use naga::{
    Binding, BuiltIn, Constant, Expression, Handle, Interpolation, Literal, Sampling, Scalar,
    ShaderStage, Span, Statement, StructMember, Type, TypeInner, VectorSize,
};

use crate::interface as itf;
use crate::{validate, Error, Translation};

/// Where a member of the linked vertex output struct takes its value from.
#[derive(Clone, Copy)]
enum Source {
    /// The component of the unlinked output struct at this index.
    Member(usize),
    /// A constant vector.
    Default([f32; 4]),
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
        return Err(TargetError::Link("needs a vertex and a pixel shader").into());
    }
    if vs.interface.linked || ps.interface.linked {
        return Err(TargetError::Link("already linked").into());
    }
    let version: Version =
        vs.interface.version.parse().map_err(|()| {
            TargetError::Link("the vertex shader's interface names no D3D9 version")
        })?;
    let reads = link_pixel_inputs(ps);
    link_vertex_outputs(&mut vs.module, &reads, version)?;
    naga::compact::compact(&mut vs.module, naga::compact::KeepUnused::No);
    vs.info = validate(&vs.module)?;
    ps.info = validate(&ps.module)?;

    for v in &mut ps.interface.varyings {
        if let Some(l) = rules::compact_location(&reads, v.location) {
            v.location = l;
        }
    }
    vs.interface.varyings = reads.iter().filter_map(LinkRead::varying).collect();
    vs.interface.linked = true;
    ps.interface.linked = true;
    Ok(())
}

/// Gives the pixel shader's inputs compact locations; returns them in fixed-location
/// order.
fn link_pixel_inputs(ps: &mut Translation) -> Vec<LinkRead> {
    let args = &mut ps.module.entry_points[0].function.arguments;
    let mut reads = LinkReads::default();
    for a in args.iter() {
        if let Some(Binding::Location {
            location,
            interpolation,
            sampling,
            ..
        }) = a.binding
        {
            let flat = interpolation == Some(Interpolation::Flat);
            reads.record(location, flat, sampling == Some(Sampling::Centroid));
        }
    }
    let reads = reads.compact();
    for a in args.iter_mut() {
        if let Some(Binding::Location { location, .. }) = &mut a.binding {
            *location = rules::compact_location(&reads, *location).unwrap_or(*location);
        }
    }
    reads
}

/// Rewrites the vertex shader's output struct to the linked varyings.
fn link_vertex_outputs(
    m: &mut naga::Module,
    reads: &[LinkRead],
    version: Version,
) -> Result<(), Error> {
    let no_struct = || {
        Error::from(TargetError::Link(
            "the vertex shader returns no output struct",
        ))
    };
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
    for r in reads {
        let own = by_location.get(&r.fixed).copied();
        let source = match (
            rules::source(version, r.fixed, own.is_some()),
            own,
            position,
        ) {
            (rules::Source::Own, Some(i), _) | (rules::Source::Position, _, Some(i)) => {
                Source::Member(i)
            }
            (rules::Source::Default(c), ..) => Source::Default(c),
            // No position output to read: the position's default.
            _ => Source::Default(d3dbc::regs::unwritten_varying(DeclUsage::Position as u8, 0)),
        };
        let name = itf::varying_at(r.fixed).map(|(u, i)| format!("{}{i}", u.name()));
        let interp = if r.flat {
            Interpolation::Flat
        } else {
            Interpolation::Perspective
        };
        new.push((
            StructMember {
                name,
                ty: vec4f,
                binding: Some(crate::lower::loc(r.location, interp, r.centroid)),
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
    rebuild_returns(f, old_ty, new_ty, &new, &defaults);
    Ok(())
}

/// Points `f`'s result at `new_ty` and makes every return of an `old_ty` value return
/// the `new_ty` value composed by `members` (a member of the old value, or a default
/// constant of `defaults`).
fn rebuild_returns(
    f: &mut naga::Function,
    old_ty: Handle<Type>,
    new_ty: Handle<Type>,
    members: &[(StructMember, Source)],
    defaults: &BTreeMap<[u32; 4], Handle<Constant>>,
) {
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
        let components = members
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
}
