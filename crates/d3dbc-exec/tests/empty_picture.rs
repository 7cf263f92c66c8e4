//! `diagnose::why_empty` names the stage that left a picture at its clear colour: every
//! vertex clipped (a zero transform), zero-area triangles, the alpha test, culling, blending with the colour write mask, killed pixels, and a pixel
//! shader that writes the clear colour; a picture with something in it gets no verdict.

use d3dbc::CompareFunc;
use d3dbc_exec::diagnose::why_empty;
use d3dbc_exec::draw::{Blend, Cull, Op, Scene};
use d3dbc_exec::{quick, Options, Renderer};

fn asm(text: &str) -> Vec<u32> {
    d3dbc::asm::assemble(text, &Default::default())
        .unwrap()
        .encode()
}

const RED: &str = "ps_2_0\ndef c0, 1, 0, 0, 1\nmov oC0, c0\n";
const VS: &str = "vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n";

fn scene(ps: &str, vs: Option<&str>, f: impl Fn(&mut d3dbc_exec::Draw)) -> Scene {
    let vs = vs.map(asm);
    let mut s = quick::fullscreen(&asm(ps), vs.as_deref(), 8, 8, &[]).unwrap();
    let Some(Op::Draw(d)) = s.ops.first_mut() else {
        unreachable!()
    };
    f(d);
    s
}

fn verdict(s: &Scene) -> Option<String> {
    let r = Renderer::run_scene(s, Options::default(), None, |_, _| {}).unwrap();
    why_empty(s, &r.fb.targets[0])
}

fn says(s: &Scene, needle: &str) {
    let v = verdict(s).unwrap_or_else(|| panic!("no verdict, expected {needle}"));
    assert!(v.contains(needle), "{v}");
}

#[test]
fn a_picture_with_something_in_it_gets_no_verdict() {
    assert_eq!(verdict(&scene(RED, None, |_| {})), None);
    let one = |d: &mut d3dbc_exec::Draw| d.vs_constants.set_float_bits(0, &[1f32.to_bits(); 4]);
    assert_eq!(verdict(&scene(RED, Some(VS), one)), None);
}

#[test]
fn a_zero_transform_clips_every_vertex() {
    // c0 = 0: every position (0, 0, 0, 0).
    let zero = |d: &mut d3dbc_exec::Draw| d.vs_constants.set_float_bits(0, &[0; 4]);
    says(
        &scene(RED, Some(VS), zero),
        "every vertex is clipped (w ≤ 0",
    );
    // All positions on one line: zero area.
    let flat = |d: &mut d3dbc_exec::Draw| {
        d.vs_constants
            .set_float_bits(0, &[1f32, 0.0, 1.0, 1.0].map(f32::to_bits))
    };
    says(&scene(RED, Some(VS), flat), "every triangle has zero area");
}

#[test]
fn the_test_that_rejects_every_pixel_is_named() {
    says(
        &scene(RED, None, |d| {
            d.render_states.alpha_test = true;
            d.render_states.alpha_func = CompareFunc::Never;
        }),
        "the alpha test rejects every pixel (AlphaFunc = Never",
    );
    says(
        &scene(RED, None, |d| {
            d.render_states.color_write = 0;
        }),
        "ColorWriteEnable = 0x0",
    );
    says(
        &scene(RED, None, |d| {
            d.render_states.blend = true;
            d.render_states.src_blend = Blend::Zero;
            d.render_states.dest_blend = Blend::One;
        }),
        "SrcBlend = Zero, DestBlend = One",
    );
    says(
        &scene(RED, None, |d| d.render_states.cull = Cull::Cw),
        "every triangle is culled",
    );
}

#[test]
fn the_pixel_shader_kills_or_writes_the_clear_colour() {
    says(
        &scene(
            "ps_2_0\ndef c0, -1, -1, -1, -1\ntexkill c0\nmov oC0, c0\n",
            None,
            |_| {},
        ),
        "every pixel is killed",
    );
    says(
        &scene("ps_2_0\ndef c0, 0, 0, 0, 1\nmov oC0, c0\n", None, |_| {}),
        "writes the clear colour (0, 0, 0, 1)",
    );
}
