//! A thread reuses its module and emitter buffers from one translation to the next (the
//! constant table, the block's value numbering and the slot table are cleared by
//! generation, not refilled): a shader's words must not depend on what the thread
//! translated before it, nor on a failed translation before it. Every corpus stream is
//! emitted on a fresh thread, then again on one thread after every other stream, forwards
//! and backwards; the words must be identical each time. The interface too: a caller of
//! the words alone leaves the interface's buffers to the next translation
//! (`Interface::reset`), so every stream's `translate` after another stream's `emit`
//! must give the interface of a fresh thread's.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc::Shader;
use d3dbc_spirv::TranslateOptions;

fn emit(s: &Shader) -> Option<Vec<u32>> {
    d3dbc_spirv::emit(s, &TranslateOptions::default()).ok()
}

fn translate(s: &Shader) -> Option<(Vec<u32>, d3dbc_spirv::Interface)> {
    d3dbc_spirv::translate(s, &TranslateOptions::default())
        .ok()
        .map(|t| (t.words, t.interface))
}

/// Every decodable corpus stream, labelled.
fn corpus() -> Option<Vec<(String, Shader)>> {
    let streams = common::all_streams()?;
    Some(
        streams
            .into_iter()
            .filter_map(|(file, label, t)| {
                Some((format!("{file} {label}"), Shader::decode(&t).ok()?))
            })
            .collect(),
    )
}

/// `f` of each shader alone, each on a new thread that translated nothing before.
fn on_fresh_threads<T: Send + 'static>(
    shaders: &[(String, Shader)],
    f: fn(&Shader) -> T,
) -> Vec<T> {
    shaders
        .iter()
        .map(|(_, s)| {
            let s = s.clone();
            std::thread::spawn(move || f(&s)).join().unwrap()
        })
        .collect()
}

#[test]
fn words_do_not_depend_on_the_translations_before() {
    let Some(shaders) = corpus() else {
        common::skipped("corpus not found");
        return;
    };
    assert!(
        shaders.len() > 300,
        "only {} shaders decoded",
        shaders.len()
    );
    // Each alone, on a thread that translated nothing before.
    let fresh = on_fresh_threads(&shaders, emit);
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

#[test]
fn interfaces_do_not_depend_on_the_words_only_translations_before() {
    let Some(shaders) = corpus() else {
        common::skipped("corpus not found");
        return;
    };
    let fresh = on_fresh_threads(&shaders, translate);
    let translated = fresh.iter().filter(|t| t.is_some()).count();
    assert!(translated > 300, "only {translated} translated");
    // Each after the words-only translation of its neighbour (whose interface, with
    // samplers, inputs, varyings and outputs of its own, was left to be reused), then
    // after that of the shader itself.
    let n = shaders.len();
    for i in 0..n {
        let (label, s) = &shaders[i];
        for before in [&shaders[(i + 1) % n].1, s] {
            emit(before);
            let t = translate(s);
            assert_eq!(
                t.as_ref().map(|t| &t.1),
                fresh[i].as_ref().map(|t| &t.1),
                "{label}: interface differs after a words-only translation"
            );
            assert_eq!(
                t.map(|t| t.0),
                fresh[i].as_ref().map(|t| t.0.clone()),
                "{label}: words differ after a words-only translation"
            );
        }
    }
}
