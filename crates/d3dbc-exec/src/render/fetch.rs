//! Vertex fetch and the vertex stage's results: reading vertex elements from the
//! streams, feeding a vertex shader's inputs, turning its outputs (or a pre-transformed
//! vertex) into a screen-space `SVert` with the varyings the pixel shader reads, and the
//! linkage (`Link`) between the two stages.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::regs;
use d3dbc::token::DeclUsage;

use crate::draw::*;
use crate::exec::{self, Lanes, Program};
use crate::format::{d3dcolor, decode_texel, exec_sat};

/// A vertex after shading: clip-space and screen position and the varyings the pixel
/// shader reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SVert {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) z: f64,
    pub(crate) rhw: f64,
    /// Clip-space position (`oPos`); `(0, 0, 0, 1)` for pre-transformed vertices, which
    /// are never clipped.
    pub(crate) pos: [f64; 4],
    pub(crate) psize: f32,
    /// Vertex fog factor: `oFog`, else the specular alpha (0 where a shader below SM3
    /// writes no oD1; 1 where a vs_3_0 writes neither, and for pre-transformed
    /// vertices).
    pub(crate) fog: f32,
    /// Signed distances to the enabled user clip planes (`dot(oPos, plane)`; planes
    /// not enabled read 0, which never clips).
    pub(crate) clip: [f64; NCLIP],
    pub(crate) v: [[f32; 4]; NVARY],
}

impl SVert {
    /// Recomputes the screen position from the clip-space one.
    pub(crate) fn set_screen(&mut self, vp: Viewport) {
        let rhw = 1.0 / self.pos[3];
        self.x = vp.x as f64 + (self.pos[0] * rhw + 1.0) * vp.width as f64 * 0.5;
        self.y = vp.y as f64 + (1.0 - self.pos[1] * rhw) * vp.height as f64 * 0.5;
        self.z = vp.min_z as f64 + self.pos[2] * rhw * (vp.max_z - vp.min_z) as f64;
        self.rhw = rhw;
    }
}

pub(crate) const NVARY: usize = 16;

/// User clip planes D3D9 defines (`D3DCLIPPLANE0`…`D3DCLIPPLANE5`).
pub(crate) const NCLIP: usize = USER_CLIP_PLANES;

/// The distances of clip-space position `pos` to the user clip planes (the planes of
/// [`Draw::user_clip_planes`], (0, 0, 0, 0) where not enabled).
fn clip_distances(pos: [f32; 4], planes: &[[f32; 4]; NCLIP]) -> [f64; NCLIP] {
    planes.map(|pl| (0..4).map(|c| pos[c] as f64 * pl[c] as f64).sum())
}

/// Where pixel-shader input `k` comes from and where it goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    pub(crate) usage: u8,
    pub(crate) index: u8,
    /// Register-file index in the pixel shader.
    pub(crate) ps_reg: usize,
    /// Also the ps_1_x interpolated texture coordinate register.
    pub(crate) tc_reg: Option<usize>,
    pub(crate) color: bool,
}

/// The pixel shader's inputs and their semantics.
pub(crate) fn ps_links(ps: Option<&Program>) -> Vec<Link> {
    let mut links = Vec::new();
    let color = DeclUsage::Color as u8;
    match ps {
        // ps_2_x and ps_3_0: the declared inputs.
        Some(p) if !p.version.is_ps_1_x() => {
            for s in &p.inputs {
                links.push(Link {
                    usage: s.usage,
                    index: s.index,
                    ps_reg: s.reg,
                    tc_reg: None,
                    color: s.usage == color,
                });
            }
        }
        _ => {
            // ps_1_x (and fixed function): the fixed varyings, t0..t7 texture coordinates
            // and v0, v1 colours (FOG feeds the fog stage, not the pixel shader).
            for &(usage, index) in &regs::FIXED_VARYINGS {
                let n = u16::from(index);
                let (ps_reg, tc_reg) = match usage {
                    DeclUsage::TexCoord => (exec::tex_reg(n), Some(exec::tc_reg(n))),
                    DeclUsage::Color => (exec::input_reg(n), None),
                    _ => continue,
                };
                links.push(Link {
                    usage: usage as u8,
                    index,
                    ps_reg,
                    tc_reg,
                    color: usage == DeclUsage::Color,
                });
            }
        }
    }
    links.truncate(NVARY);
    links
}

/// One vertex element of vertex `vi` as RGBA floats (missing components 0, 0, 0, 1),
/// or `None` when its stream is absent or too short (shared with the GPU runner).
pub fn read_element(d: &Draw, e: &VertexElement, vi: usize) -> Option<[f32; 4]> {
    let s = d.streams.iter().find(|s| s.stream == e.stream)?;
    let off = vi * s.stride as usize + e.offset as usize;
    let b = s.data.get(off..off + e.ty.size())?;
    let f = |i: usize| f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let u16at = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
    let h = |i: usize| decode_texel(Format::R16F, &u16at(i).to_le_bytes())[0];
    Some(match e.ty {
        DeclType::Float1 => [f(0), 0.0, 0.0, 1.0],
        DeclType::Float2 => [f(0), f(1), 0.0, 1.0],
        DeclType::Float3 => [f(0), f(1), f(2), 1.0],
        DeclType::Float4 => [f(0), f(1), f(2), f(3)],
        DeclType::D3dColor => d3dcolor(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        DeclType::Ubyte4 => [b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32],
        DeclType::Ubyte4N => [
            b[0] as f32 / 255.0,
            b[1] as f32 / 255.0,
            b[2] as f32 / 255.0,
            b[3] as f32 / 255.0,
        ],
        DeclType::Short2 => [u16at(0) as i16 as f32, u16at(1) as i16 as f32, 0.0, 1.0],
        DeclType::Short4 => [
            u16at(0) as i16 as f32,
            u16at(1) as i16 as f32,
            u16at(2) as i16 as f32,
            u16at(3) as i16 as f32,
        ],
        DeclType::Short2N => [
            u16at(0) as i16 as f32 / 32767.0,
            u16at(1) as i16 as f32 / 32767.0,
            0.0,
            1.0,
        ],
        DeclType::Short4N => [
            u16at(0) as i16 as f32 / 32767.0,
            u16at(1) as i16 as f32 / 32767.0,
            u16at(2) as i16 as f32 / 32767.0,
            u16at(3) as i16 as f32 / 32767.0,
        ],
        DeclType::Ushort2N => [
            u16at(0) as f32 / 65535.0,
            u16at(1) as f32 / 65535.0,
            0.0,
            1.0,
        ],
        DeclType::Ushort4N => [
            u16at(0) as f32 / 65535.0,
            u16at(1) as f32 / 65535.0,
            u16at(2) as f32 / 65535.0,
            u16at(3) as f32 / 65535.0,
        ],
        DeclType::Float16_2 => [h(0), h(1), 0.0, 1.0],
        DeclType::Float16_4 => [h(0), h(1), h(2), h(3)],
    })
}

/// What a declared vertex-shader input reads when the vertex declaration has no element
/// for it, or the element's stream is absent or too short: every component is missing,
/// so it reads like the missing components of a partial element, `(0, 0, 0, 1)` (what a
/// disabled attribute reads in GL and wined3d). Shared with the GPU runner.
pub const MISSING_INPUT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

pub(crate) fn fetch_vertex(d: &Draw, p: &Program, vi: usize, lanes: &mut Lanes, l: usize) {
    for s in &p.inputs {
        lanes.set(s.reg, l, MISSING_INPUT);
    }
    // Below vs_3_0 oD0 starts as the diffuse default (1, 1, 1, 1): the components a
    // shader leaves unwritten read 1 (Wine `test_uninitialized_varyings`: `mov oD0.x,
    // c0` with c0 = 0.5 draws 0xff7fffff on Windows). The other outputs start at 0.
    if !p.version.declares_varyings() {
        lanes.set(
            exec::attr_reg(0),
            l,
            d3dbc::regs::unwritten_varying(DeclUsage::Color as u8, 0),
        );
    }
    for e in &d.vertex_declaration {
        let reg = match e.register {
            Some(r) => Some(exec::input_reg(r as u16)),
            None => p
                .inputs
                .iter()
                .find(|s| s.usage == e.usage && s.index == e.usage_index)
                .map(|s| s.reg),
        };
        if let Some(reg) = reg {
            if let Some(v) = read_element(d, e, vi) {
                lanes.set(reg, l, v);
            }
        }
    }
}

fn to_screen(pos: [f32; 4], vp: Viewport) -> (f64, f64, f64, f64) {
    let w = pos[3] as f64;
    let rhw = 1.0 / w;
    let x = vp.x as f64 + (pos[0] as f64 * rhw + 1.0) * vp.width as f64 * 0.5;
    let y = vp.y as f64 + (1.0 - pos[1] as f64 * rhw) * vp.height as f64 * 0.5;
    let z = vp.min_z as f64 + pos[2] as f64 * rhw * (vp.max_z - vp.min_z) as f64;
    (x, y, z, rhw)
}

pub(crate) fn vs_output(
    p: &Program,
    lanes: &Lanes,
    l: usize,
    links: &[Link],
    vp: Viewport,
    clip_planes: &[[f32; 4]; NCLIP],
) -> SVert {
    let color = DeclUsage::Color as u8;
    let texc = DeclUsage::TexCoord as u8;
    let (pos, psize) = if p.version.declares_varyings() {
        let pos = d3dbc::regs::vs3_position_output(p.outputs.iter().map(|s| (s.usage, s.index)))
            .map_or([0.0; 4], |k| lanes.get(p.outputs[k].reg, l));
        let mut ps = 0.0;
        for s in &p.outputs {
            if s.usage == DeclUsage::PSize as u8 {
                ps = lanes.get(s.reg, l)[0];
            }
        }
        (pos, ps)
    } else {
        let ps = if p.writes[exec::PTS] {
            lanes.get(exec::PTS, l)[0]
        } else {
            0.0
        };
        (lanes.get(exec::POS, l), ps)
    };
    let (x, y, z, rhw) = to_screen(pos, vp);
    let mut v = [[0.0f32; 4]; NVARY];
    for (k, link) in links.iter().enumerate() {
        let val = if p.version.declares_varyings() {
            p.outputs
                .iter()
                .find(|s| s.usage == link.usage && s.index == link.index)
                .map(|s| lanes.get(s.reg, l))
        } else if link.usage == color && link.index < 2 {
            let r = exec::attr_reg(link.index as u16);
            p.writes[r].then(|| lanes.get(r, l).map(exec_sat))
        } else if link.usage == texc && link.index < 8 {
            let r = exec::out_reg(link.index as u16);
            p.writes[r].then(|| lanes.get(r, l))
        } else if link.usage == DeclUsage::Fog as u8 {
            p.writes[exec::FOG].then(|| lanes.get(exec::FOG, l).map(exec_sat))
        } else {
            None
        };
        v[k] = val.unwrap_or_else(|| d3dbc::regs::unwritten_varying(link.usage, link.index));
    }
    let fog = if p.version.declares_varyings() {
        p.outputs
            .iter()
            .find(|s| s.usage == DeclUsage::Fog as u8)
            .map(|s| lanes.get(s.reg, l)[0])
            .or_else(|| {
                p.outputs
                    .iter()
                    .find(|s| s.usage == color && s.index == 1)
                    .map(|s| lanes.get(s.reg, l)[3])
            })
    } else if p.writes[exec::FOG] {
        Some(lanes.get(exec::FOG, l)[0])
    } else {
        // Below SM3 vertex fog reads oFog, else the specular alpha, and an oD1 the
        // shader does not write reads 0: fully fogged (Wine `fog_with_shader_test`:
        // a vertex shader writing neither gives the fog colour; vkd3d
        // `fog.shader_test`: oD1.a without oFog is the fog factor).
        Some(lanes.get(exec::attr_reg(1), l)[3])
    };
    SVert {
        x,
        y,
        z,
        rhw,
        pos: pos.map(|c| c as f64),
        psize,
        fog: exec_sat(fog.unwrap_or(1.0)),
        clip: clip_distances(pos, clip_planes),
        v,
    }
}

pub(crate) fn pretransformed(d: &Draw, vi: usize, links: &[Link]) -> SVert {
    let mut pos = [0.0f32, 0.0, 0.0, 1.0];
    let mut v = [[0.0f32; 4]; NVARY];
    for (k, link) in links.iter().enumerate() {
        v[k] = d3dbc::regs::unwritten_varying(link.usage, link.index);
    }
    for e in &d.vertex_declaration {
        let Some(val) = read_element(d, e, vi) else {
            continue;
        };
        if e.usage == DeclUsage::PositionT as u8 || e.usage == DeclUsage::Position as u8 {
            pos = val;
        } else if let Some(k) = links
            .iter()
            .position(|l| l.usage == e.usage && l.index == e.usage_index)
        {
            v[k] = val;
        }
    }
    let rhw = if pos[3] != 0.0 {
        1.0 / pos[3] as f64
    } else {
        1.0
    };
    SVert {
        x: pos[0] as f64,
        y: pos[1] as f64,
        z: pos[2] as f64,
        rhw: 1.0 / rhw,
        pos: [0.0, 0.0, 0.0, 1.0],
        psize: 0.0,
        fog: 1.0,
        // Pre-transformed vertices are not clipped by user planes.
        clip: [0.0; NCLIP],
        v,
    }
}
