//! Pre-transformed vertices and their programmable equivalent
//! (`d3dbc_exec::pretransformed`) draw the same pixels on the CPU executor: the GPU
//! runner, which only has the programmable path, relies on it.

use d3dbc_exec::draw::Op;
use d3dbc_exec::pretransformed::programmable_equivalent;
use d3dbc_exec::{quick, Options, Renderer, Scene};

fn render(scene: &Scene) -> Vec<[f32; 4]> {
    Renderer::run_scene(scene, Options::default(), None, |_, _| {})
        .unwrap()
        .targets[0]
        .pixels
        .clone()
}

fn check(ps_text: &str, w: u32, h: u32) {
    let ps = d3dbc::asm::assemble(ps_text, &Default::default())
        .unwrap()
        .encode();
    let scene = quick::fullscreen(&ps, None, w, h, &[]).unwrap();
    let mut equivalent = scene.clone();
    let Some(Op::Draw(d)) = equivalent.ops.first_mut() else {
        panic!("no draw")
    };
    **d = programmable_equivalent(d)
        .unwrap()
        .expect("pre-transformed draw");
    assert!(d.vs.is_some());
    let (a, b) = (render(&scene), render(&equivalent));
    let mut worst = 0f32;
    for (p, q) in a.iter().zip(&b) {
        for c in 0..4 {
            worst = worst.max((p[c] - q[c]).abs());
        }
    }
    // Texture coordinates go through x → ndc → x, a few ulps; an 8-bit target hides them.
    assert!(
        worst <= 1.0 / 255.0,
        "{ps_text}: worst channel difference {worst}"
    );
    assert!(
        a.iter().any(|p| *p != a[0]),
        "{ps_text}: flat image, the test shows nothing"
    );
}

#[test]
fn texcoords_and_colours_match() {
    check("ps_2_0\ndcl t0\nmov oC0, t0\n", 37, 23);
    check(
        "ps_2_0\ndcl t1.xy\ndcl v0\ndcl_2d s0\ntexld r0, t1, s0\nmul oC0, r0, v0\n",
        64,
        48,
    );
    check("ps_1_1\ntex t0\nmul r0, t0, v0\n", 32, 32);
    check(
        "ps_3_0\ndcl_texcoord2 v3.xy\ndcl vPos.xy\nmad oC0, v3.xyxy, c0.x, vPos.xyxy\n",
        16,
        9,
    );
}

#[test]
fn programmable_draws_are_left_alone() {
    let ps = d3dbc::asm::assemble("ps_2_0\nmov oC0, c0\n", &Default::default())
        .unwrap()
        .encode();
    let vs = d3dbc::asm::assemble(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\n",
        &Default::default(),
    )
    .unwrap()
    .encode();
    let scene = quick::fullscreen(&ps, Some(&vs), 8, 8, &[]).unwrap();
    let Some(Op::Draw(d)) = scene.ops.first() else {
        panic!("no draw")
    };
    assert!(programmable_equivalent(d).unwrap().is_none());
}
