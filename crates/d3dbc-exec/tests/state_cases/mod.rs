//! Scenes for the render and texture-stage states that act on what shaders compute,
//! each with the values Windows gives as its source states them: user clip planes
//! (Microsoft, "IDirect3DDevice9::SetClipPlane" and "D3DCLIPPLANEn"), ps_1_1–1_3
//! projected texture reads under `D3DTSS_TEXTURETRANSFORMFLAGS` (Wine
//! `dlls/d3d9/tests/visual.c`, `projected_textures_test` and the tables of
//! `texture_transform_flags_test`) and fog with shaders (Wine `fog_with_shader_test`).
//! None of these tests is a record of the shared corpus.
//!
//! Shared by the CPU executor's test (`d3dbc-exec/tests/pipeline_state.rs`) and the GPU
//! runner's (`d3dbc-gpu/tests/pipeline_state.rs`), so that the three implementations meet
//! the same expectations.

#![allow(dead_code)]

use std::sync::Arc;

use d3dbc::token::DeclUsage;
use d3dbc_exec::draw::*;
use d3dbc_exec::quick;

/// One scene and what Windows reads back from it.
pub struct Case {
    /// What the case shows, for messages.
    pub name: String,
    /// The work.
    pub scene: Scene,
    /// The expected pixels.
    pub checks: Vec<Check>,
    /// Draws through the fixed-function pixel pipeline (no pixel shader), which only
    /// the CPU executor runs.
    pub fixed_function_ps: bool,
}

/// One expected pixel of target 0: `0x00RRGGBB` within `tolerance` per 8-bit channel
/// (Wine's `color_match`), read after `after` draws.
pub struct Check {
    pub after: usize,
    pub x: u32,
    pub y: u32,
    pub rgb: u32,
    pub tolerance: u8,
}

impl Case {
    /// Whether some check reads after `n` draws.
    pub fn wants(&self, n: usize) -> bool {
        self.checks.iter().any(|c| c.after == n)
    }

    /// The checks read after `n` draws against `read(x, y)`; one message per failure.
    pub fn check(&self, n: usize, read: impl Fn(u32, u32) -> [f32; 4]) -> Vec<String> {
        let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as i32;
        self.checks
            .iter()
            .filter(|c| c.after == n)
            .filter_map(|c| {
                let got = read(c.x, c.y);
                let got = (q(got[0]) << 16) | (q(got[1]) << 8) | q(got[2]);
                let ok = (0..3).all(|k| {
                    let (a, b) = ((got >> (8 * k)) & 0xFF, (c.rgb as i32 >> (8 * k)) & 0xFF);
                    (a - b).abs() <= c.tolerance as i32
                });
                (!ok).then(|| {
                    format!(
                        "{}: after draw {n}, pixel ({}, {}) is {got:06x}, Windows gives {:06x}",
                        self.name, c.x, c.y, c.rgb
                    )
                })
            })
            .collect()
    }
}

fn tokens(text: &str) -> Vec<u32> {
    d3dbc::asm::assemble(text, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .encode()
}

fn argb(c: u32) -> [f32; 4] {
    let ch = |s: u32| ((c >> s) & 0xFF) as f32 / 255.0;
    [ch(16), ch(8), ch(0), ch(24)]
}

fn clear(c: u32) -> Op {
    quick::clear_all(argb(c))
}

fn target(width: u32, height: u32) -> TargetDesc {
    TargetDesc {
        width,
        height,
        format: Format::A8R8G8B8,
        initial: [0.0; 4],
    }
}

fn element(offset: u16, ty: DeclType, usage: DeclUsage) -> VertexElement {
    VertexElement {
        stream: 0,
        offset,
        ty,
        usage: usage as u8,
        usage_index: 0,
        register: None,
    }
}

fn stream(stride: u32, floats: &[f32]) -> Vec<VertexStream> {
    vec![VertexStream {
        stream: 0,
        stride,
        data: floats.iter().flat_map(|f| f.to_le_bytes()).collect(),
    }]
}

fn sized_draw(width: u32, height: u32) -> Draw {
    let mut d = Draw::new(Primitive::TriangleStrip, 4);
    d.viewport.width = width;
    d.viewport.height = height;
    d.render_states.cull = Cull::None;
    d
}

/// User clip planes with a vertex shader: a full-viewport quad in clip space (w = 1)
/// drawn white over black, `D3DRS_CLIPPLANEENABLE` enabling planes by bit, any
/// combination ("D3DCLIPPLANEn": "bit 0 controls the first clipping plane (at index
/// 0), bit 1 the second plane"), the planes in clip space, a point kept where
/// `A·x + B·y + C·z + D·w ≥ 0` ("SetClipPlane"). Pixel (x, y) of the 64×64 target is
/// at clip (x/32 − 1, 1 − y/32); the checks keep off the plane's own pixels.
pub fn clip_plane_cases() -> Vec<Case> {
    const N: u32 = 64;
    let ps = tokens("ps_2_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0\n");
    let vs_1 = tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\n");
    let vs_3 = tokens("vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n");
    // A plane that would clip everything, where a case leaves it disabled.
    let everything = [0.0, 0.0, 0.0, -1.0];
    let keep_right = [1.0, 0.0, 0.0, 0.0]; // x ≥ 0: pixels x ≥ 32
    let keep_top = [0.0, 1.0, 0.0, 0.0]; // y ≥ 0: pixels y ≤ 32
    let keep_left_of_half = [-1.0, 0.0, 0.0, 0.5]; // x ≤ 0.5: pixels x ≤ 48
    let case =
        |name: &str, vs: &[u32], enable: u32, planes: Vec<[f32; 4]>, want: &[(u32, u32, bool)]| {
            let mut d = sized_draw(N, N);
            d.vs = Some(vs.to_vec());
            d.ps = Some(ps.clone());
            d.vertex_declaration = vec![element(0, DeclType::Float4, DeclUsage::Position)];
            d.streams = stream(
                16,
                &[
                    -1.0, 1.0, 0.5, 1.0, 1.0, 1.0, 0.5, 1.0, -1.0, -1.0, 0.5, 1.0, 1.0, -1.0, 0.5,
                    1.0,
                ],
            );
            d.render_states.clip_plane_enable = enable;
            d.render_states.clip_planes = planes;
            Case {
                name: name.into(),
                scene: Scene {
                    targets: vec![target(N, N)],
                    depth: None,
                    ops: vec![clear(0xff000000), Op::Draw(Box::new(d))],
                },
                checks: want
                    .iter()
                    .map(|&(x, y, kept)| Check {
                        after: 1,
                        x,
                        y,
                        rgb: if kept { 0xffffff } else { 0 },
                        tolerance: 0,
                    })
                    .collect(),
                fixed_function_ps: false,
            }
        };
    let right = [
        (16, 16, false),
        (16, 48, false),
        (48, 16, true),
        (48, 48, true),
    ];
    vec![
        case(
            "plane 1 alone enabled (plane 0 set, not enabled), vs_1_1",
            &vs_1,
            0b10,
            vec![everything, keep_right],
            &right,
        ),
        case(
            "plane 1 alone enabled, vs_3_0 position output",
            &vs_3,
            0b10,
            vec![everything, keep_right],
            &right,
        ),
        case(
            "planes 0 and 2 enabled, plane 1 not",
            &vs_1,
            0b101,
            vec![keep_top, everything, keep_left_of_half],
            &[
                (16, 16, true),
                (40, 16, true),
                (56, 16, false),
                (16, 48, false),
                (40, 48, false),
            ],
        ),
        case(
            "no plane enabled",
            &vs_1,
            0,
            vec![everything, everything],
            &[(16, 16, true), (48, 48, true)],
        ),
    ]
}

/// The 4×4 `D3DFMT_L8` texture of `texture_transform_flags_test`: black, one white
/// texel at (1, 1); point sampled, clamped.
fn projection_texture() -> Arc<Texture> {
    let mut data = vec![0u8; 16];
    data[4 + 1] = 0xFF;
    Arc::new(Texture {
        kind: TextureKind::Tex2d,
        format: Format::L8,
        width: 4,
        height: 4,
        depth: 1,
        levels: 1,
        data,
    })
}

/// One quad of a `projected_textures_test` run: the transform flags of stage 0, the
/// components of its `TEXCOORD0` element, and Wine's rectangle where the white texel
/// lands (`check_rect`: white just inside each corner, black just outside).
struct ProjectedQuad {
    quad: usize,
    flags: u32,
    components: u32,
    rect: [u32; 4],
}

const COUNT1: u32 = 1;
const COUNT3: u32 = 3;
const COUNT4: u32 = 4;
const PROJECTED: u32 = 0x100;

/// `projected_textures_test`: 640×480 (the rectangles are Wine's), quad `i` one
/// quarter of the viewport with texture coordinates `(u, v, 4, 6)`, u and v from 0 to
/// 4 across it, through `tex t0` of a ps_1_3. With `vertex_shader`, a vs_1_1 passes
/// `POSITION` and `TEXCOORD0` through; without, the vertices are pre-transformed.
fn projected_run(name: &str, vertex_shader: bool, quads: &[ProjectedQuad]) -> Case {
    const W: u32 = 640;
    const H: u32 = 480;
    let ps = tokens("ps_1_3\ntex t0\nmov r0, t0\n");
    let vs = tokens("vs_1_1\ndcl_position v0\ndcl_texcoord0 v1\nmov oPos, v0\nmov oT0, v1\n");
    // Quad origins (clip x, y of the corner at u = v = 0): bottom left, bottom right,
    // top left, top right.
    let origin = [(-1.0f32, -1.0f32), (0.0, -1.0), (-1.0, 0.0), (0.0, 0.0)];
    let mut ops = vec![clear(0xff203040)];
    let mut checks = Vec::new();
    for q in quads {
        let mut d = sized_draw(W, H);
        d.ps = Some(ps.clone());
        d.textures = vec![Some(projection_texture())];
        d.samplers = vec![SamplerState {
            address_u: Address::Clamp,
            address_v: Address::Clamp,
            address_w: Address::Clamp,
            ..SamplerState::default()
        }];
        d.stages = vec![TextureStage {
            transform_flags: q.flags,
            ..TextureStage::default()
        }];
        let tc_ty = match q.components {
            2 => DeclType::Float2,
            3 => DeclType::Float3,
            _ => DeclType::Float4,
        };
        let (x0, y0) = origin[q.quad];
        let mut floats = Vec::new();
        for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let (x, y) = (x0 + dx, y0 + dy);
            if vertex_shader {
                floats.extend([x, y, 0.1]);
            } else {
                let sx = (x + 1.0) * W as f32 / 2.0;
                let sy = (1.0 - y) * H as f32 / 2.0;
                floats.extend([sx, sy, 0.1, 1.0]);
            }
            floats.extend([4.0 * dx, 4.0 * dy, 4.0, 6.0]);
        }
        if vertex_shader {
            d.vs = Some(vs.clone());
            d.vertex_declaration = vec![
                element(0, DeclType::Float3, DeclUsage::Position),
                element(12, tc_ty, DeclUsage::TexCoord),
            ];
            d.streams = stream(28, &floats);
        } else {
            d.vertex_declaration = vec![
                element(0, DeclType::Float4, DeclUsage::PositionT),
                element(16, tc_ty, DeclUsage::TexCoord),
            ];
            d.streams = stream(32, &floats);
        }
        ops.push(Op::Draw(Box::new(d)));
        // check_rect: corners probed one pixel outside (black) and inside (white).
        let [l, t, r, b] = q.rect;
        for (xo, xi) in [(l - 1, l + 1), (r + 1, r - 1)] {
            for (yo, yi) in [(t - 1, t + 1), (b + 1, b - 1)] {
                for (x, y) in [(xo, yo), (xo, yi), (xi, yo), (xi, yi)] {
                    let inside = x == xi && y == yi;
                    checks.push((x, y, inside));
                }
            }
        }
    }
    let after = quads.len();
    Case {
        name: name.into(),
        scene: Scene {
            targets: vec![target(W, H)],
            depth: None,
            ops,
        },
        checks: checks
            .into_iter()
            .map(|(x, y, inside)| Check {
                after,
                x,
                y,
                rgb: if inside { 0xffffff } else { 0 },
                tolerance: 0,
            })
            .collect(),
        fixed_function_ps: false,
    }
}

/// The runs of `projected_textures_test` with a pixel shader (the GPU runner needs
/// one): with a vertex shader (the third table), and with pre-transformed vertices for
/// the first two tables' vertex-pipeline rows (Windows decides those by the vertex
/// declaration alone).
pub fn projection_cases() -> Vec<Case> {
    let pq = |quad, flags, components, rect| ProjectedQuad {
        quad,
        flags,
        components,
        rect,
    };
    vec![
        projected_run(
            "vertex shader: COUNT3|PROJECTED and 0xffffffff draw like COUNT4|PROJECTED",
            true,
            &[
                pq(1, COUNT3 | PROJECTED, 4, [440, 300, 560, 390]),
                pq(2, 0xffff_ffff, 4, [120, 60, 240, 150]),
            ],
        ),
        projected_run(
            "vertex shader: PROJECTED alone draws like COUNT4|PROJECTED",
            true,
            &[pq(0, PROJECTED, 4, [120, 300, 240, 390])],
        ),
        projected_run(
            "no vertex shader: COUNT4, COUNT3, 0xffffffff, COUNT3 on a 2-component coordinate",
            false,
            &[
                pq(0, COUNT4 | PROJECTED, 4, [120, 300, 240, 390]),
                pq(1, COUNT3 | PROJECTED, 4, [400, 360, 480, 420]),
                pq(2, 0xffff_ffff, 4, [120, 60, 240, 150]),
                pq(3, COUNT3 | PROJECTED, 2, [340, 210, 360, 225]),
            ],
        ),
        projected_run(
            "no vertex shader: PROJECTED alone and 0xffffffff follow the coordinate's components, COUNT1 does not project",
            false,
            &[
                pq(0, PROJECTED, 4, [120, 300, 240, 390]),
                pq(1, PROJECTED, 3, [400, 360, 480, 420]),
                pq(2, 0xffff_ffff, 3, [80, 120, 160, 180]),
                pq(3, COUNT1, 2, [340, 210, 360, 225]),
            ],
        ),
    ]
}

/// `fog_with_shader_test`'s expected colours (the reference of a GeForce 7600, Windows
/// XP) for z = 0.001 + j / 10.02, j = 0…10.
const FOGGED: [u32; 11] = [0x00ff00; 11];
const LINEAR_TABLE: [u32; 11] = [
    0xff0000, 0xff0000, 0xdf2000, 0xbf4000, 0x9f6000, 0x7f8000, 0x5fa000, 0x40bf00, 0x20df00,
    0x00ff00, 0x00ff00,
];
const EXP_TABLE: [u32; 11] = [
    0xff0000, 0xe71800, 0xd12e00, 0xbd4200, 0xab5400, 0x9b6400, 0x8d7200, 0x7f8000, 0x738c00,
    0x689700, 0x5ea100,
];
const EXP2_TABLE: [u32; 11] = [
    0xfd0200, 0xf50200, 0xf50a00, 0xe91600, 0xd92600, 0xc73800, 0xb24d00, 0x9c6300, 0x867900,
    0x728d00, 0x5ea100,
];
const VERTEX_FOG: [u32; 11] = [
    0xff0000, 0xfe0100, 0xde2100, 0xbf4000, 0x9f6000, 0x7f8000, 0x5fa000, 0x3fc000, 0x1fe000,
    0x00ff00, 0x00ff00,
];

/// `fog_with_shader_test`, the rows with a vertex shader (the rows without one use the
/// fixed-function vertex pipeline): a red quad at depth z, fog colour green, fog start
/// 0.1 and end 0.9, the colour probed after each of 11 depths. Vertex shaders: 1 writes
/// no fog, 2 (vs_1_1) and 3 (vs_2_0) write `oFog = (0.9 − z) · 1.25`; pixel shaders:
/// 0 none, 1 ps_1_1, 2 ps_2_0.
pub fn fog_cases() -> Vec<Case> {
    use FogMode::{Exp, Exp2, Linear, None as Off};
    const N: u32 = 16;
    let vs_plain = "dcl_position v0\ndcl_color0 v1\nmov oPos, v0\nmov oD0, v1\n";
    let vs_foggy = "dcl_position v0\ndcl_color0 v1\ndef c0, -1.25, 0.0, -0.9, 0.0\n\
                    mov oPos, v0\nmov oD0, v1\nadd r0, v0.z, c0.z\nmul oFog, r0.x, c0.x\n";
    let vs = [
        None,
        Some(tokens(&format!("vs_1_1\n{vs_plain}"))),
        Some(tokens(&format!("vs_1_1\n{vs_foggy}"))),
        Some(tokens(&format!("vs_2_0\n{vs_foggy}"))),
    ];
    let ps = [
        None,
        Some(tokens("ps_1_1\nmov r0, v0\n")),
        Some(tokens("ps_2_0\ndcl v0\nmov oC0, v0\n")),
    ];
    let modes = [Off, Exp, Exp2, Linear];
    let mut rows: Vec<(usize, usize, FogMode, FogMode, [u32; 11])> = vec![
        (1, 0, Off, Off, FOGGED),
        (1, 0, Off, Linear, LINEAR_TABLE),
        (1, 0, Exp, Linear, LINEAR_TABLE),
        (1, 0, Exp2, Linear, LINEAR_TABLE),
        (1, 0, Linear, Linear, LINEAR_TABLE),
        (1, 1, Off, Off, FOGGED),
        (1, 1, Linear, Off, FOGGED),
        (1, 1, Exp, Off, FOGGED),
        (1, 1, Exp2, Off, FOGGED),
        (1, 1, Off, Linear, LINEAR_TABLE),
        (1, 1, Exp, Linear, LINEAR_TABLE),
        (1, 1, Exp2, Linear, LINEAR_TABLE),
        (1, 1, Linear, Linear, LINEAR_TABLE),
        (1, 1, Off, Exp, EXP_TABLE),
        (1, 1, Off, Exp2, EXP2_TABLE),
    ];
    for (v, p) in [(2, 0), (3, 0), (2, 1), (3, 1), (2, 2), (3, 2)] {
        for m in modes {
            rows.push((v, p, m, Off, VERTEX_FOG));
        }
    }
    rows.extend([
        (2, 1, Off, Exp, EXP_TABLE),
        (2, 1, Off, Exp2, EXP2_TABLE),
        (2, 1, Off, Linear, LINEAR_TABLE),
    ]);
    rows.into_iter()
        .map(|(v, p, vfog, tfog, colours)| {
            let mut ops = Vec::new();
            let mut checks = Vec::new();
            for (j, &rgb) in colours.iter().enumerate() {
                let z = 0.001 + j as f32 / 10.02;
                let mut d = sized_draw(N, N);
                d.vs = vs[v].clone();
                d.ps = ps[p].clone();
                d.vertex_declaration = vec![
                    element(0, DeclType::Float3, DeclUsage::Position),
                    element(12, DeclType::D3dColor, DeclUsage::Color),
                ];
                // Position, then the colour as the D3DCOLOR word 0xffff0000 (red).
                let data = [(-1.0f32, -1.0f32), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
                    .iter()
                    .flat_map(|&(x, y)| [x.to_bits(), y.to_bits(), z.to_bits(), 0xffff_0000])
                    .flat_map(u32::to_le_bytes)
                    .collect();
                d.streams = vec![VertexStream {
                    stream: 0,
                    stride: 16,
                    data,
                }];
                let rs = &mut d.render_states;
                rs.fog_enable = true;
                rs.fog_color = 0xff00_ff00;
                rs.fog_start = 0.1;
                rs.fog_end = 0.9;
                rs.fog_vertex_mode = vfog;
                rs.fog_table_mode = tfog;
                ops.push(clear(0xffff00ff));
                ops.push(Op::Draw(Box::new(d)));
                checks.push(Check {
                    after: j + 1,
                    x: N / 4,
                    y: N / 2,
                    rgb,
                    tolerance: 13,
                });
            }
            Case {
                name: format!("fog: vs {v}, ps {p}, vertex mode {vfog:?}, table mode {tfog:?}"),
                scene: Scene {
                    targets: vec![target(N, N)],
                    depth: None,
                    ops,
                },
                checks,
                fixed_function_ps: p == 0,
            }
        })
        .collect()
}
