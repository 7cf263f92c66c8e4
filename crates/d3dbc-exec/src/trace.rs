//! Formatting an execution trace: each executed instruction as `dis` prints it,
//! indented by its depth in the listing (inside `if`/`loop`/`rep` blocks, as `dis`
//! indents them, every iteration alike), with the
//! value it wrote at the traced lane. `d3dbc run --trace` and the web page's pixel
//! trace print through here.

use d3dbc::opcode::Block;
use d3dbc::print;

use crate::exec::Program;

/// `(x, y, z, w)` with Rust's shortest round-trip float formatting.
pub fn fmt4(v: [f32; 4]) -> String {
    format!("({}, {}, {}, {})", v[0], v[1], v[2], v[3])
}

/// One trace step ready to show: the instruction (indented) and the value it wrote,
/// `None` where the lane was inactive or the instruction writes no register.
pub fn steps(
    program: &Program,
    steps: &[(u32, [f32; 4], bool)],
) -> Vec<(String, Option<[f32; 4]>)> {
    // Each instruction's depth in the listing (not in the execution: a loop's body
    // runs again without its `rep` being executed again).
    let mut depth = 0usize;
    let depths: Vec<usize> = program
        .originals
        .iter()
        .map(|ins| {
            let block = ins.opcode.block();
            if matches!(block, Block::Else | Block::Close) {
                depth = depth.saturating_sub(1);
            }
            let at = depth;
            if matches!(block, Block::Open | Block::Else) {
                depth += 1;
            }
            at
        })
        .collect();
    let mut out = Vec::with_capacity(steps.len());
    for &(i, val, active) in steps {
        let Some(ins) = program.originals.get(i as usize) else {
            continue;
        };
        let mut text = " ".repeat(2 * depths[i as usize].min(32));
        print::print_instruction(ins, program.version, &mut text);
        let text = text.trim_end().to_string();
        out.push((text, (active && !val[0].is_nan()).then_some(val)));
    }
    out
}

/// One step as a text line: `instruction ; (x, y, z, w)`, the value column aligned; the
/// instruction alone where it wrote no value.
pub fn line(text: &str, value: Option<[f32; 4]>) -> String {
    match value {
        Some(v) => format!("{text:<40} ; {}", fmt4(v)),
        None => text.to_string(),
    }
}

/// The trace as text lines ([`line()`] for each step).
pub fn lines(program: &Program, trace: &[(u32, [f32; 4], bool)]) -> Vec<String> {
    steps(program, trace)
        .into_iter()
        .map(|(t, v)| line(&t, v))
        .collect()
}
