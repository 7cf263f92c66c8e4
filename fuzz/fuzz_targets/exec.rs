//! Arbitrary bytes → decode → validate → execute. The first 256 bytes become float,
//! integer and boolean constants and input values; the rest is the token stream. A
//! validator-accepted shader must run without panicking and end (or stop at the
//! instruction budget with a clean error) as a vertex (four lanes) or a pixel shader
//! (an 8×4 full-screen draw with default textures).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

use d3dbc_exec::draw::{Constants, Op};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{exec::Program, quick};

fuzz_target!(|data: &[u8]| {
    let Some((head, tokens, shader)) = common::valid_shader(data, 256) else {
        return;
    };
    let words: Vec<u32> = head
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut consts = Constants::default();
    consts.set_float_bits(0, &words[..48]);
    consts.set_int(
        0,
        &words[48..60].iter().map(|w| *w as i32).collect::<Vec<_>>(),
    );
    consts.bool = words[60..64].iter().map(|w| w & 1 != 0).collect();
    let opts = Options {
        budget: 20_000,
        ..Options::default()
    };
    if shader.version.is_vertex() {
        if let Ok(prog) = Program::new(&shader) {
            let _ = quick::run_vertex(&prog, &consts, &opts.sem, opts.budget);
        }
    } else if let Ok(mut scene) = quick::fullscreen(&tokens, None, 8, 4, &[]) {
        if let Some(Op::Draw(d)) = scene.ops.first_mut() {
            d.ps_constants = consts;
        }
        let _ = Renderer::run_scene(&scene, opts, None, |_, _| {});
    }
});
