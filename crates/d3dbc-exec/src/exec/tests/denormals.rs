//! The subnormal rule (`d3dbc::Denormals`) in the executor, checked against
//! a source the other tests do not use: the per-class result tables of Microsoft's
//! shader model 4 assembly reference (MicrosoftDocs/win32,
//! `desktop-src/direct3dhlsl/{mul,exp,frc}--sm4---asm-.md`, `rcp--sm5---asm-.md`), the
//! D3D10+ float32 rules that D3D9 shaders run under on today's hardware: a ±denorm
//! source reads as a zero of its sign (`mul`: `-denorm · +F = -0`, `exp(±denorm) = 1`,
//! `frc(±denorm) = +0`, `rcp(±denorm) = ±inf`), results that would be subnormal are
//! flushed, and `mov` moves the bits unchanged. Under `Denormals::Preserve` the same
//! shaders give IEEE 754's gradual-underflow results, so each case tells the two rules
//! apart. (The tables' `denorm · inf = NaN` is not checked: D3D9's `0 · x = 0` rule,
//! `MulZero::Strict`, differs from D3D10's there.)

use crate::draw::Constants;
use crate::exec::{self, Env, Lanes, Program};
use d3dbc::asm;
use d3dbc::{Denormals, Semantics};

/// The smallest positive subnormal and a larger one.
const D: f32 = f32::from_bits(1);
const D2: f32 = f32::from_bits(0x0040_0000);
const INF: f32 = f32::INFINITY;

/// Runs the ps_3_0 `body` (or a whole vertex shader's text) with float constants `consts` under `denormals`; `r0` of lane 0.
fn run(body: &str, consts: &[(usize, [f32; 4])], denormals: Denormals) -> [f32; 4] {
    let text = if body.starts_with("vs_") {
        format!("{body}\n")
    } else {
        format!("ps_3_0\n{body}\n")
    };
    let shader =
        asm::assemble(&text, &asm::Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = Program::new(&shader).unwrap();
    let mut c = Constants::default();
    for (r, v) in consts {
        c.set_float_bits(*r, &v.map(f32::to_bits));
    }
    let sem = Semantics {
        denormals,
        ..Semantics::default()
    };
    let cf = prog.constants(&c, &sem);
    let env = Env {
        consts: &cf,
        stages: &[],
        sem: &sem,
        budget: 1 << 20,
        perturb: 0.0,
    };
    let mut lanes = Lanes::default();
    lanes.reset();
    exec::run(&prog, &mut lanes, &env, 0xF).unwrap();
    lanes.get(exec::temp_reg(0), 0)
}

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

const SIGNED: (usize, [f32; 4]) = (0, [D, -D, D2, -D2]);

#[test]
fn mul_reads_a_denormal_as_a_zero_of_its_sign() {
    // Table row -denorm / +denorm against columns -F, +F.
    let c = [SIGNED, (1, [-3.0, -3.0, 2.0, 2.0])];
    let flushed = run("mul r0, c0, c1", &c, Denormals::FlushToZero);
    assert_eq!(bits(flushed), bits([-0.0, 0.0, 0.0, -0.0]));
    let kept = run("mul r0, c0, c1", &c, Denormals::Preserve);
    assert_eq!(kept[2], D2 * 2.0);
    assert!(kept[0] < 0.0 && kept[0] != 0.0);
}

#[test]
fn exp_frc_and_rcp_follow_the_tables() {
    let c = [SIGNED];
    let ftz = Denormals::FlushToZero;
    // exp(±denorm) = 1.
    assert_eq!(run("exp r0, c0.y", &c, ftz), [1.0; 4]);
    // frc(±denorm) = +0; preserving, frc(-denorm) = -denorm + 1 rounds to 1.
    assert_eq!(bits(run("frc r0, c0", &c, ftz)), [0; 4]);
    assert_eq!(run("frc r0, c0", &c, Denormals::Preserve)[1], 1.0);
    // rcp(+denorm) = +inf, rcp(-denorm) = -inf (the SM5 table).
    assert_eq!(run("rcp r0, c0.x", &c, ftz), [INF; 4]);
    assert_eq!(run("rcp r0, c0.y", &c, ftz), [-INF; 4]);
    // Preserving, 1/D2 = 1/2^-127 = 2^127, finite.
    assert!(run("rcp r0, c0.z", &c, Denormals::Preserve)[0].is_finite());
}

#[test]
fn results_that_would_be_subnormal_are_flushed() {
    // 2^-100 · 2^-30 = 2^-130 (subnormal): +0 flushed, 2^-130 kept. exp(-128) likewise:
    // the RGBE decode of a texel whose alpha is 0.
    let c = [(0, [2f32.powi(-100), 2f32.powi(-30), -128.0, 1.0])];
    let f = run(
        "mul r0.x, c0.x, c0.y\nexp r0.y, c0.z",
        &c,
        Denormals::FlushToZero,
    );
    assert_eq!([f[0].to_bits(), f[1].to_bits()], [0, 0]);
    let p = run(
        "mul r0.x, c0.x, c0.y\nexp r0.y, c0.z",
        &c,
        Denormals::Preserve,
    );
    // 2^-130 and 2^-128 as subnormal bits (2^-149 is bit 0).
    assert_eq!(p[0].to_bits(), 1 << 19);
    assert_eq!(p[1].to_bits(), 1 << 21);
}

#[test]
fn moves_and_selections_keep_the_bits() {
    let c = [SIGNED, (1, [1.0, -1.0, 1.0, -1.0]), (2, [5.0; 4])];
    let ftz = Denormals::FlushToZero;
    // mov, with or without a sign modifier, is data movement.
    assert_eq!(bits(run("mov r0, c0", &c, ftz)), bits(SIGNED.1));
    assert_eq!(
        bits(run("mov r0, -c0", &c, ftz)),
        bits(SIGNED.1.map(|x| -x))
    );
    // cmp selects an operand unchanged, its condition compares flushed: -denorm >= 0.
    assert_eq!(bits(run("cmp r0, c0.y, c0, c2", &c, ftz)), bits(SIGNED.1));
    assert_eq!(
        run("cmp r0, c0.y, c0, c2", &c, Denormals::Preserve),
        [5.0; 4]
    );
    // Comparisons: -denorm < +denorm is false when flushed (-0 < +0).
    let slt = "vs_3_0\nslt r0, c0.y, c0.x";
    assert_eq!(run(slt, &c, ftz)[0], 0.0);
    assert_eq!(run("vs_3_0\nslt r0, c0.y, c2.x", &c, ftz)[0], 1.0);
    assert_eq!(run(slt, &c, Denormals::Preserve)[0], 1.0);
    // add: a denormal sum of denormals flushes; preserved it is 2·D.
    assert_eq!(run("add r0.x, c0.x, c0.x", &c, ftz)[0].to_bits(), 0);
    assert_eq!(
        run("add r0.x, c0.x, c0.x", &c, Denormals::Preserve)[0],
        2.0 * D
    );
}

#[test]
fn flow_control_comparisons_flush() {
    let text = "mov r0, c2\nif_lt c0.y, c0.x\nmov r0, c1\nendif";
    let c = [SIGNED, (1, [1.0; 4]), (2, [0.0; 4])];
    assert_eq!(run(text, &c, Denormals::FlushToZero), [0.0; 4]);
    assert_eq!(run(text, &c, Denormals::Preserve), [1.0; 4]);
}
