//! A thread reuses its module and emitter buffers from one translation to the next (the
//! constant table, the block's value numbering and the slot table are cleared by
//! generation, not refilled): a shader's words must not depend on what the thread
//! translated before it, nor on a failed translation before it. Every corpus stream is
//! emitted on a fresh thread, then again on one thread after every other stream, forwards
//! and backwards; the words must be identical each time.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc::Shader;
use d3dbc_spirv::TranslateOptions;

fn emit(s: &Shader) -> Option<Vec<u32>> {
    d3dbc_spirv::emit(s, &TranslateOptions::default()).ok()
}

#[test]
fn words_do_not_depend_on_the_translations_before() {
    let Some(streams) = common::all_streams() else {
        common::skipped("corpus not found");
        return;
    };
    let shaders: Vec<(String, Shader)> = streams
        .into_iter()
        .filter_map(|(file, label, t)| Some((format!("{file} {label}"), Shader::decode(&t).ok()?)))
        .collect();
    assert!(
        shaders.len() > 300,
        "only {} shaders decoded",
        shaders.len()
    );
    // Each alone, on a thread that translated nothing before.
    let fresh: Vec<Option<Vec<u32>>> = shaders
        .iter()
        .map(|(_, s)| {
            let s = s.clone();
            std::thread::spawn(move || emit(&s)).join().unwrap()
        })
        .collect();
    let emitted = fresh.iter().filter(|w| w.is_some()).count();
    assert!(emitted > 300, "only {emitted} emitted");
    // All in one thread, forwards then backwards: every one follows different ones.
    let mut order: Vec<usize> = (0..shaders.len()).collect();
    for _ in 0..2 {
        for &i in &order {
            let (label, s) = &shaders[i];
            assert_eq!(
                emit(s),
                fresh[i],
                "{label}: words differ after other translations"
            );
        }
        order.reverse();
    }
}
