//! Pixels run in groups of four 2×2 quads; nothing about that grouping is visible: the
//! instruction budget still applies per quad (a group whose quads diverge may execute
//! more instructions than any quad alone), derivatives stay within each quad, and the
//! lane-instruction count is that of the lanes that ran.

use d3dbc::asm;
use d3dbc_exec::exec::ExecError;
use d3dbc_exec::quick;
use d3dbc_exec::render::{Options, RenderError, Renderer};

fn tokens(t: &str) -> Vec<u32> {
    asm::assemble(t, &asm::Options::default())
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

/// Pixels with x < 4 (the first two quads of the first 8-pixel group) add 1/64 fifty
/// times to r0.x, the others to r0.y: that group of four quads runs both loops.
const DIVERGENT: &str = "ps_3_0
defi i0, 50, 0, 0, 0
def c0, 4, 0, 0.015625, 0
dcl vPos.xy
mov r0, c0.y
if_lt vPos.x, c0.x
rep i0
add r0.x, r0.x, c0.z
endrep
else
rep i0
add r0.y, r0.y, c0.z
endrep
endif
mov oC0, r0
";

fn render(budget: u64) -> Result<Renderer, RenderError> {
    let scene = quick::fullscreen(&tokens(DIVERGENT), None, 16, 4, &[]).unwrap();
    let opts = Options {
        budget,
        ..Options::default()
    };
    Renderer::run_scene(&scene, opts, None, |_, _| {})
}

#[test]
fn the_budget_is_per_quad_even_when_quads_run_together() {
    // One quad alone: mov, if, rep, 50 × (add, endrep), else/endif, mov ≈ 105; both
    // branches in one group ≈ 210. A budget of 150 is enough for every quad.
    let full = render(1 << 20).unwrap();
    let tight = render(150).unwrap();
    assert_eq!(full.targets[0].pixels, tight.targets[0].pixels);
    // 50/64 in an 8-bit target: round(0.78125 × 255) = 199.
    let img = &full.targets[0];
    assert_eq!(img.get(3, 0)[..2], [199.0 / 255.0, 0.0]);
    assert_eq!(img.get(4, 0)[..2], [0.0, 199.0 / 255.0]);
    // Too small for one quad: a clean error naming the offending instruction.
    match render(60) {
        Err(RenderError::Exec {
            err: ExecError::Budget { budget: 60, .. },
            ..
        }) => {}
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("a budget of 60 cannot run 50 iterations"),
    }
}

#[test]
fn lane_instructions_count_the_lanes_that_ran() {
    let r = render(1 << 20).unwrap();
    // Quads on the diagonal of the full-screen quad run once per triangle (helpers).
    let lanes = r.stats.ps_lanes;
    assert!(lanes >= 64 && lanes.is_multiple_of(4), "{lanes} lanes");
    // Every lane is active for exactly 105 of the instructions its group executes:
    // mov, if_lt, rep, 50 × (add, endrep), then `else` (x < 4) or `endif` (the others,
    // after their own rep), mov. The instructions a lane sits out (the other branch,
    // an `else`/`endif` reached with no lane active) do not count.
    assert_eq!(r.stats.ps_lane_instructions, 105 * lanes);
}
