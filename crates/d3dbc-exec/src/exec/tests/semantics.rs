//! The edge cases of `../shared/design/semantics.md` and the ps_1_x texture-address ops,
//! each checked against a value computed by hand.

use crate::draw::{Constants, Format, SamplerState, Texture, TextureKind, TextureStage};
use crate::exec::{self, Env, ExecError, Lanes, Program, Stage};
use crate::texture::Decoded;
use d3dbc::asm;
use d3dbc::Semantics;

const INF: f32 = f32::INFINITY;

struct Run {
    lanes: Lanes,
}

impl Run {
    fn reg(&self, r: usize) -> [f32; 4] {
        self.lanes.get(r, 0)
    }
}

/// Assembles and runs `text` on one lane group; `inputs` set `v#` (vs) or `t#`
/// coordinates (ps) on every lane; `consts` are uploaded float constants.
fn run_with(
    text: &str,
    consts: &[(usize, [f32; 4])],
    inputs: &[(usize, [f32; 4])],
    stages: &[Stage],
    budget: u64,
) -> Result<Run, ExecError> {
    let shader =
        asm::assemble(text, &asm::Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = Program::new(&shader)?;
    let mut c = Constants::default();
    for (r, v) in consts {
        c.set_float_bits(*r, &v.map(f32::to_bits));
    }
    let sem = Semantics::default();
    let cf = prog.constants(&c, &sem);
    let env = Env {
        consts: &cf,
        stages,
        sem: &sem,
        budget,
        perturb: 0.0,
    };
    let mut lanes = Lanes::default();
    lanes.reset();
    for (r, v) in inputs {
        for l in 0..exec::LANES {
            if shader.version.is_pixel() {
                lanes.set(exec::tex_reg(*r as u16), l, *v);
                lanes.set(exec::tc_reg(*r as u16), l, *v);
            } else {
                lanes.set(exec::input_reg(*r as u16), l, *v);
            }
        }
    }
    exec::run(&prog, &mut lanes, &env, 0xF)?;
    Ok(Run { lanes })
}

fn run(text: &str, consts: &[(usize, [f32; 4])]) -> Run {
    run_with(text, consts, &[], &[], 1 << 20).unwrap()
}

const R0: usize = exec::temp_reg(0);
const R1: usize = exec::temp_reg(1);

#[test]
fn zero_times_anything_is_zero_in_arithmetic_not_in_modifiers() {
    let r = run(
        "vs_2_0\nmul r0, c0, c1\ndp3 r1, c0, c1\n",
        &[(0, [0.0, 0.0, 2.0, 0.0]), (1, [INF, f32::NAN, 3.0, 1.0])],
    );
    assert_eq!(r.reg(R0), [0.0, 0.0, 6.0, 0.0]);
    assert_eq!(r.reg(R1), [6.0; 4]);
}

#[test]
fn pow_rcp_rsq_log_nrm() {
    let r = run(
        "vs_2_0\npow r0.x, c0.x, c0.y\npow r0.y, c0.z, c0.w\nrcp r0.z, c0.y\nrsq r0.w, c1.x\nlog r1.x, c0.y\nrcp r1.y, c1.y\nnrm r2, c2\nmov r1.z, r2.w\n",
        &[(0, [-2.0, 0.0, -4.0, 0.5]), (1, [-4.0, 1.0, 0.0, 0.0]), (2, [0.0; 4])],
    );
    // |-2|^0 = 1 (0^0 style), |-4|^0.5 = 2, rcp(0) = inf, rsq(-4) = 0.5.
    assert_eq!(r.reg(R0), [1.0, 2.0, INF, 0.5]);
    // log(0) = -FLT_MAX, rcp(1) exactly 1, nrm of a zero vector is 0 (never NaN).
    assert_eq!(&r.reg(R1)[..3], &[-f32::MAX, 1.0, 0.0]);
}

#[test]
fn lit_uses_strict_tests_and_clamps_the_power() {
    let r = run(
        "vs_1_1\nlit r0, c0\nlit r1, c1\n",
        &[(0, [0.5, 0.25, 0.0, 2.0]), (1, [0.5, 0.0, 0.0, 200.0])],
    );
    assert_eq!(r.reg(R0), [1.0, 0.5, 0.0625, 1.0]);
    // y = 0 → z = 0 (not pow(0, 127.99)), no NaN.
    assert_eq!(r.reg(R1), [1.0, 0.5, 0.0, 1.0]);
}

#[test]
fn vs_1_1_mov_a0_floors_and_mova_rounds() {
    let r = run(
        "vs_1_1\ndef c0, 1, 0, 0, 0\ndef c1, 2, 0, 0, 0\ndef c2, 3, 0, 0, 0\nmov a0.x, c10.x\nmov r0, c2[a0.x]\n",
        &[(10, [-0.5, 0.0, 0.0, 0.0])],
    );
    // floor(-0.5) = -1 → c1.
    assert_eq!(r.reg(R0)[0], 2.0);
    let r = run(
        "vs_2_0\ndef c0, 1, 0, 0, 0\ndef c1, 2, 0, 0, 0\ndef c2, 3, 0, 0, 0\ndef c3, 4, 0, 0, 0\nmova a0.x, c10.x\nmov r0, c1[a0.x]\nmova a0.x, c10.y\nmov r1, c3[a0.x]\n",
        &[(10, [1.5, -1.5, 0.0, 0.0])],
    );
    // round(1.5) = 2 → c3; round(-1.5) = -2 → c1.
    assert_eq!(r.reg(R0)[0], 4.0);
    assert_eq!(r.reg(R1)[0], 2.0);
}

/// `mova` rounds to nearest with ties to even, as Windows does: Microsoft's driver
/// documentation of `D3DSIO_MOVA` ("converted from floating-point using rounding to
/// nearest", IEEE 754's default, ties to even; `../shared/seeds`), the rule of
/// `../shared/design/semantics.md` §1 (Windows: 0.5 → 0, 1.5 → 2) and of dxbc-spirv's
/// SM3 front end. The values off a tie are those of Wine's d3d9 `test_mova`, verified on
/// Windows (-2.4, -1.6 → -2; ±0.4 → 0; 1.6, 2.4 → 2).
#[test]
fn mova_rounds_ties_to_even() {
    // c0..c10 hold their own index minus 5, so `c5[a0.x]` reads back a0.x.
    let defs: String = (0..=10)
        .map(|i| format!("def c{i}, {}, 0, 0, 0\n", i - 5))
        .collect();
    let cases = [
        (0.5, 0.0),
        (1.5, 2.0),
        (2.5, 2.0),
        (3.5, 4.0),
        (-0.5, 0.0),
        (-1.5, -2.0),
        (-2.5, -2.0),
        (-3.5, -4.0),
        (-2.4, -2.0),
        (-1.6, -2.0),
        (-0.4, 0.0),
        (0.4, 0.0),
        (1.6, 2.0),
        (2.4, 2.0),
    ];
    for (x, want) in cases {
        let r = run(
            &format!("vs_2_0\n{defs}mova a0.x, c20.x\nmov r0, c5[a0.x]\n"),
            &[(20, [x, 0.0, 0.0, 0.0])],
        );
        assert_eq!(r.reg(R0)[0], want, "mova of {x}");
    }
}

#[test]
fn out_of_range_relative_reads_zero() {
    let r = run(
        "vs_2_0\nmova a0.x, c0.x\nmov r0, c250[a0.x]\n",
        &[(0, [10.0, 0.0, 0.0, 0.0])],
    );
    assert_eq!(r.reg(R0), [0.0; 4]);
}

#[test]
fn vs_1_1_expp_logp_four_component_forms() {
    let r = run(
        "vs_1_1\nexpp r0, c0.x\nlogp r1, c0.y\n",
        &[(0, [2.5, 8.0, 0.0, 0.0])],
    );
    assert_eq!(r.reg(R0), [4.0, 0.5, 2.5f32.exp2(), 1.0]);
    assert_eq!(r.reg(R1), [3.0, 1.0, 3.0, 1.0]);
    let r = run("vs_2_0\nexpp r0, c0.x\n", &[(0, [2.5, 8.0, 0.0, 0.0])]);
    assert_eq!(r.reg(R0), [2.5f32.exp2(); 4]);
}

#[test]
fn loop_with_negative_step_terminates_and_al_nests() {
    // i0 = (3 iterations, start 10, step -2): aL = 10, 8, 6 → sum 24.
    let r = run(
        "vs_3_0\ndefi i0, 3, 10, -2, 0\ndefi i1, 2, 1, 1, 0\ndef c0, 0, 0, 0, 0\nmov r0, c0\nmov r1, c0\nloop aL, i0\nadd r0.x, r0.x, c200[aL].x\nloop aL, i1\nadd r1.x, r1.x, c200[aL].x\nendloop\nadd r0.y, r0.y, c200[aL].x\nendloop\n",
        &(0..12).map(|i| (200 + i, [i as f32, 0.0, 0.0, 0.0])).collect::<Vec<_>>(),
    );
    assert_eq!(r.reg(R0)[0], 24.0);
    // The outer aL is restored after the inner loop.
    assert_eq!(r.reg(R0)[1], 24.0);
    // Inner loop: aL = 1, 2 for each of 3 outer iterations.
    assert_eq!(r.reg(R1)[0], 9.0);
}

#[test]
fn runaway_loops_stop_at_the_budget_with_the_offset() {
    let text = "vs_3_0\ndefi i0, 255, 0, 1, 0\ndef c0, 1, 0, 0, 0\nrep i0\nrep i0\nrep i0\nadd r0, r0, c0\nendrep\nendrep\nendrep\n";
    match run_with(text, &[], &[], &[], 10_000) {
        Err(ExecError::Budget { budget, offset }) => {
            assert_eq!(budget, 10_000);
            assert!(offset > 0);
        }
        other => panic!(
            "expected a budget error, got {:?}",
            other.map(|r| r.reg(R0))
        ),
    }
}

#[test]
fn ps_1_x_constant_clamp_cnd_shift_saturate_and_coissue() {
    let r = run(
        "ps_1_1\nmov r1, c0\nmov_x2_sat r0, c1\n",
        &[(0, [2.0, -3.0, 0.5, 0.0]), (1, [0.3, 0.6, -0.2, 0.75])],
    );
    // Constants clamp to [-1, 1]; shift then saturate.
    assert_eq!(r.reg(R1), [1.0, -1.0, 0.5, 0.0]);
    assert_eq!(r.reg(R0), [0.6, 1.0, 0.0, 1.0]);
    // cnd (1.1–1.3) tests r0.a > 0.5; 0.5 itself is not greater.
    let r = run(
        "ps_1_1\nmov r0, c0\ncnd r1, r0.a, c1, c2\nmov r0.a, c3.a\ncnd r0.rgb, r0.a, c1, c2\n",
        &[
            (0, [0.0, 0.0, 0.0, 0.5]),
            (1, [1.0; 4]),
            (2, [0.25; 4]),
            (3, [0.0, 0.0, 0.0, 0.75]),
        ],
    );
    assert_eq!(r.reg(R1), [0.25; 4]);
    assert_eq!(&r.reg(R0)[..3], &[1.0; 3]);
    // Co-issue: both halves read r0 before either writes.
    let r = run(
        "ps_1_1\nmov r0, c0\nmov r0.rgb, r0.a\n+mov r0.a, r0.r\n",
        &[(0, [0.25, 0.0, 0.0, 0.75])],
    );
    assert_eq!(r.reg(R0), [0.75, 0.75, 0.75, 0.25]);
}

#[test]
fn texkill_sm1_tests_xyz_strictly_below_zero() {
    let r = run_with(
        "ps_1_1\ntexkill t0\nmov r0, c0\n",
        &[],
        &[(0, [0.0, 0.5, 0.2, -1.0])],
        &[],
        1000,
    )
    .unwrap();
    assert_eq!(r.lanes.killed, 0, "w is not tested, 0 is not < 0");
    let r = run_with(
        "ps_1_1\ntexkill t0\nmov r0, c0\n",
        &[],
        &[(0, [0.0, -0.01, 0.2, 1.0])],
        &[],
        1000,
    )
    .unwrap();
    assert_eq!(r.lanes.killed, 0xF);
}

#[test]
fn texdepth_w_zero_gives_one() {
    let r = run(
        "ps_1_4\ntexcrd r5.rgb, t0\nmov r5.rg, c0\nphase\ntexdepth r5\nmov r0, c1\n",
        &[(0, [0.5, 0.0, 0.0, 0.0])],
    );
    assert_eq!(r.reg(exec::DEPTH)[0], 1.0);
    let r = run(
        "ps_1_4\ntexcrd r5.rgb, t0\nmov r5.rg, c0\nphase\ntexdepth r5\nmov r0, c1\n",
        &[(0, [0.5, 1.0, 0.0, 0.0])],
    );
    assert_eq!(r.reg(exec::DEPTH)[0], 0.5);
}

/// A `w`×`h` A32B32G32R32F texture whose texel (x, y) is (x, y, 0, 1).
fn coord_texture(w: u32, h: u32) -> Decoded {
    coord_texture_b(w, h, 0.0)
}

/// A `w`×`h` A32B32G32R32F texture whose texel (x, y) is (x, y, b, 1).
fn coord_texture_b(w: u32, h: u32, b: f32) -> Decoded {
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            for v in [x as f32, y as f32, b, 1.0] {
                data.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    Decoded::new(&Texture {
        kind: TextureKind::Tex2d,
        format: Format::A32B32G32R32F,
        width: w,
        height: h,
        depth: 1,
        levels: 1,
        data,
    })
    .unwrap()
}

#[test]
fn ps_1_x_texture_address_ops() {
    let tex = coord_texture(8, 8);
    let bump = TextureStage {
        bump_mat: [0.5, 0.0, 0.0, -0.25],
        ..TextureStage::default()
    };
    let st = |tss| Stage {
        tex: Some(&tex),
        state: SamplerState::default(),
        tss,
        projection: 0,
    };
    let stages = [
        st(TextureStage::default()),
        st(bump),
        st(TextureStage::default()),
        st(TextureStage::default()),
    ];
    let c = |t: &str, inputs: &[(usize, [f32; 4])]| {
        run_with(t, &[], inputs, &stages, 1000).unwrap().reg(R0)
    };
    // tex: point sample at t0 = (0.3, 0.6) → texel (2, 4).
    assert_eq!(
        c("ps_1_1\ntex t0\nmov r0, t0\n", &[(0, [0.3, 0.6, 0.0, 1.0])]),
        [2.0, 4.0, 0.0, 1.0]
    );
    // texcoord saturates and sets w = 1.
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\nmov r0, t0\n",
            &[(0, [1.5, -0.5, 0.25, 7.0])]
        ),
        [1.0, 0.0, 0.25, 1.0]
    );
    // texbem: t0 sampled (2, 4); u' = 0.3 + 0.5·2 = 1.3 → wraps to 0.3 → texel 2;
    // v' = 0.1 + (−0.25)·4 = −0.9 → wraps to 0.1 → texel 0.
    assert_eq!(
        c(
            "ps_1_1\ntex t0\ntexbem t1, t0\nmov r0, t1\n",
            &[(0, [0.3, 0.6, 0.0, 1.0]), (1, [0.3, 0.1, 0.0, 1.0])]
        ),
        [2.0, 0.0, 0.0, 1.0]
    );
    // texreg2ar samples at (t0.a, t0.r) = (1, 2/… ) — use texcoord values directly.
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\ntexreg2ar t1, t0\nmov r0, t1\n",
            &[(0, [0.625, 0.0, 0.0, 0.3])]
        ),
        // (w, x) = (1.0 after texcoord, 0.625) → texel (0 (wrap of 1.0), 5).
        [0.0, 5.0, 0.0, 1.0]
    );
    // texm3x2pad/texm3x2tex: u = t1·t0, v = t2·t0.
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n",
            &[
                (0, [0.5, 0.25, 0.0, 1.0]),
                (1, [0.25, 0.5, 0.0, 0.0]),
                (2, [1.0, 1.5, 0.0, 0.0])
            ]
        ),
        // u = 0.125 + 0.125 = 0.25 → texel 2; v = 0.5 + 0.375 = 0.875 → texel 7.
        [2.0, 7.0, 0.0, 1.0]
    );
    // texdp3 replicates the dot product: (2, 4, 0.5)·(0.5, 0.25, 1) = 2.5.
    assert_eq!(
        c(
            "ps_1_2\ntexcoord t0\ntexdp3 t1, t0\nmov r0, t1\n",
            &[(0, [0.5, 0.25, 1.0, 1.0]), (1, [2.0, 4.0, 0.5, 0.0])]
        ),
        [2.5, 2.5, 2.5, 2.5]
    );
}

#[test]
fn ps_1_4_phase_drops_temporary_alpha() {
    // Phase 1 writes r0 and r1 whole; after `phase` their colour is kept, their
    // alpha reads 0 (semantics.md §2); a write in phase 2 is kept.
    let r = run(
        "ps_1_4\nmov r0, c0\nmov r1, c1\nphase\nmov r2, r1\nmov r0.a, c2.a\n",
        &[
            (0, [0.25, 0.5, 0.75, 1.0]),
            (1, [0.125, 0.375, 0.625, 0.875]),
            (2, [0.0, 0.0, 0.0, 0.5]),
        ],
    );
    assert_eq!(r.reg(R0), [0.25, 0.5, 0.75, 0.5]);
    assert_eq!(r.reg(R1), [0.125, 0.375, 0.625, 0.0]);
    assert_eq!(r.reg(exec::temp_reg(2)), [0.125, 0.375, 0.625, 0.0]);
}

#[test]
fn user_clip_planes_clip_where_the_interpolated_distance_is_negative() {
    use crate::draw::Op;
    use crate::quick;
    use crate::render::{Options, Renderer};
    let tokens = |t: &str| asm::assemble(t, &asm::Options::default()).unwrap().encode();
    let vs = tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\n");
    let ps = tokens("ps_2_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0\n");
    let render = |enable: u32, planes: Vec<[f32; 4]>| {
        let mut scene = quick::fullscreen(&ps, Some(&vs), 8, 8, &[]).unwrap();
        let Op::Draw(d) = &mut scene.ops[0] else {
            unreachable!()
        };
        d.render_states.clip_plane_enable = enable;
        d.render_states.clip_planes = planes;
        let r = Renderer::run_scene(&scene, Options::default(), None, |_, _| {}).unwrap();
        let img = &r.targets[0];
        (0..8)
            .map(|x| img.get(x, 3)[0] == 1.0)
            .collect::<Vec<bool>>()
    };
    // Pixel x has clip-space x = x/4 - 1: plane (1, 0, 0, 0) keeps x >= 4 (distance 0
    // at x = 4 is not clipped); plane (-1, 0, 0, 0.25) keeps clip x <= 0.25, pixel x <= 5.
    let planes = vec![[1.0, 0.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.25]];
    let mut want = [false; 8];
    want[4..].fill(true);
    assert_eq!(render(1, planes.clone()), want);
    want[6..].fill(false);
    assert_eq!(render(3, planes.clone()), want);
    // Only plane 1 enabled.
    assert_eq!(
        render(2, planes.clone()),
        [true, true, true, true, true, true, false, false]
    );
    // Planes present but not enabled never clip.
    assert_eq!(render(0, planes), [true; 8]);
}

/// The ps_1_x texture-address ops the test above does not cover, each against a value
/// computed by hand from Microsoft's instruction pages (all textures: texel (x, y) of
/// an 8×8 texture reads (x, y, b, 1), point sampling, wrap).
#[test]
fn ps_1_x_texture_address_ops_more() {
    let tex = coord_texture(8, 8);
    let texb = coord_texture_b(8, 8, 0.5);
    let bump = TextureStage {
        bump_mat: [0.5, 0.0, 0.0, -0.25],
        bump_lscale: 0.5,
        bump_loffset: 0.25,
        ..TextureStage::default()
    };
    let st = |t, tss| Stage {
        tex: Some(t),
        state: SamplerState::default(),
        tss,
        projection: 0,
    };
    let stages = [
        st(&texb, TextureStage::default()),
        st(&texb, bump),
        st(&tex, TextureStage::default()),
        st(&tex, TextureStage::default()),
    ];
    let run = |t: &str, consts: &[(usize, [f32; 4])], inputs: &[(usize, [f32; 4])]| {
        run_with(t, consts, inputs, &stages, 1000).unwrap()
    };
    let c = |t: &str, inputs: &[(usize, [f32; 4])]| run(t, &[], inputs).reg(R0);

    // texcrd (1_4) copies the coordinate without clamping.
    let r = c(
        "ps_1_4\ntexcrd r0.rgb, t0\n",
        &[(0, [1.5, -0.5, 0.25, 7.0])],
    );
    assert_eq!(&r[..3], &[1.5, -0.5, 0.25]);
    // texcrd _dz divides x and y by z: (1, 2, 4) → (0.25, 0.5).
    let r = c(
        "ps_1_4\ntexcrd r0.rgb, t0_dz.xyz\n",
        &[(0, [1.0, 2.0, 4.0, 1.0])],
    );
    assert_eq!(&r[..2], &[0.25, 0.5]);

    // texbeml: t0 samples (2, 4, 0.5, 1); u' = 0.3 + 0.5·2 = 1.3 → 0.3 → texel 2,
    // v' = 0.1 − 0.25·4 = −0.9 → 0.1 → texel 0: (2, 0, 0.5, 1); luminance
    // L = t0.b · 0.5 + 0.25 = 0.5 scales all four channels: (1, 0, 0.25, 0.5).
    assert_eq!(
        c(
            "ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1\n",
            &[(0, [0.3, 0.6, 0.0, 1.0]), (1, [0.3, 0.1, 0.0, 1.0])]
        ),
        [1.0, 0.0, 0.25, 0.5]
    );

    // bem (1_4, phase 1): r1.r = c0.r + M00·r2.r + M10·r2.g = 0.25 + 0.5·0.5 + 0 = 0.5;
    // r1.g = c0.g + M01·r2.r + M11·r2.g = 0.5 + 0 − 0.25·1 = 0.25 (stage = dst number 1).
    let r = run(
        "ps_1_4\nmov r2, c1\nbem r1.rg, c0, r2\nphase\nmov r0, r1\n",
        &[(0, [0.25, 0.5, 0.0, 0.0]), (1, [0.5, 1.0, 0.0, 0.0])],
        &[],
    );
    assert_eq!(&r.reg(R0)[..2], &[0.5, 0.25]);

    // texreg2gb samples at (t0.g, t0.b) = (0.375, 0.625) → texel (3, 5) of stage 1.
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\ntexreg2gb t1, t0\nmov r0, t1\n",
            &[(0, [0.0, 0.375, 0.625, 1.0])]
        ),
        [3.0, 5.0, 0.5, 1.0]
    );
    // texreg2rgb samples at (r, g, b); a 2D texture uses (r, g) = (0.125, 0.875).
    assert_eq!(
        c(
            "ps_1_2\ntexcoord t0\ntexreg2rgb t2, t0\nmov r0, t2\n",
            &[(0, [0.125, 0.875, 0.5, 1.0])]
        ),
        [1.0, 7.0, 0.0, 1.0]
    );

    // texdp3tex samples at (t1·t0, 0): (0.25, 0.5, 0.125)·(0.5, 0.25, 1) = 0.375 → texel
    // (3, 0).
    assert_eq!(
        c(
            "ps_1_2\ntexcoord t0\ntexdp3tex t1, t0\nmov r0, t1\n",
            &[(0, [0.5, 0.25, 1.0, 1.0]), (1, [0.25, 0.5, 0.125, 0.0])]
        ),
        [3.0, 0.0, 0.5, 1.0]
    );

    // texm3x2depth: z = t1·t0 = 0.25, w = t2·t0 = 0.875 → depth z/w; w = 0 → 1.
    let depth = |t2: [f32; 4]| {
        run(
            "ps_1_3\ntexcoord t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n",
            &[],
            &[
                (0, [0.5, 0.25, 0.0, 1.0]),
                (1, [0.25, 0.5, 0.0, 0.0]),
                (2, t2),
            ],
        )
        .reg(exec::DEPTH)[0]
    };
    assert_eq!(depth([1.0, 1.5, 0.0, 0.0]), 0.25f32 / 0.875f32);
    assert_eq!(depth([0.0; 4]), 1.0);

    // texm3x3pad ×2 + texm3x3tex: (u, v, w) = (t1·t0, t2·t0, t3·t0) =
    // (0.25, 0.75, 1.75); a 2D texture samples (u, v) → texel (2, 6).
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n",
            &[
                (0, [0.5, 0.25, 1.0, 1.0]),
                (1, [0.25, 0.5, 0.0, 0.0]),
                (2, [0.5, 0.0, 0.5, 0.0]),
                (3, [1.0, 1.0, 1.0, 0.0]),
            ]
        ),
        [2.0, 6.0, 0.0, 1.0]
    );

    // texm3x3spec: N = (t1·t0, t2·t0, t3·t0) = (0, 0.5, 0.5), E = c0 = (0.25, 0, 0.5);
    // R = 2·N·(N·E)/(N·N) − E = 2·N·0.25/0.5 − E = (−0.25, 0.5, 0) → u wraps to 0.75:
    // texel (6, 4).
    let spec_in = [
        (0, [0.0, 0.5, 1.0, 1.0]),
        (1, [1.0, 0.0, 0.0, 0.25]),
        (2, [0.0, 1.0, 0.0, 0.0]),
        (3, [0.0, 0.0, 0.5, 0.5]),
    ];
    assert_eq!(
        run(
            "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n",
            &[(0, [0.25, 0.0, 0.5, 0.0])],
            &spec_in,
        )
        .reg(R0),
        [6.0, 4.0, 0.0, 1.0]
    );
    // texm3x3vspec: the eye is (t1.w, t2.w, t3.w) = (0.25, 0, 0.5): the same reflection.
    assert_eq!(
        c(
            "ps_1_1\ntexcoord t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0\nmov r0, t3\n",
            &spec_in
        ),
        [6.0, 4.0, 0.0, 1.0]
    );
}
