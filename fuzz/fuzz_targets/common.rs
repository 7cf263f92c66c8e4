//! What the fuzz targets that run shaders share: split the input into a fixed-size head
//! (options, constants) and a token stream, and keep only shaders the validator accepts.
#![allow(dead_code)]

/// `data` as `(head, tokens, shader)` when it holds `head_len` bytes, at least two
/// tokens after them, and the tokens decode to a shader with no validation error.
pub fn valid_shader(data: &[u8], head_len: usize) -> Option<(&[u8], Vec<u32>, d3dbc::Shader)> {
    if data.len() < head_len + 8 {
        return None;
    }
    let (head, body) = data.split_at(head_len);
    let tokens: Vec<u32> = body
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let shader = d3dbc::Shader::decode(&tokens).ok()?;
    let invalid = d3dbc::validate::validate(&shader)
        .iter()
        .any(|f| f.severity == d3dbc::diag::Severity::Error);
    (!invalid).then_some((head, tokens, shader))
}
