//! The MojoShader shim the peer bench times: where MojoShader is built (`cargo xtask
//! peers --fetch-only` first), it translates a real shader with every profile the bench
//! uses and refuses bytes that are not a shader, so the bench never times a call that
//! fails at once. Without the sources the test says it has nothing to check.

use d3dbc_peers::mojoshader::{self, Profile};

/// `vs_2_0`: `dcl_position v0; mov oPos, v0; mov oD0, c0`.
const VS: [u32; 10] = [
    0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x02000001, 0xc00f0000, 0x90e40000, 0x02000001,
    0xd00f0000, 0xa0e40000,
];

fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

#[test]
fn mojoshader_translates_a_shader_and_refuses_garbage() {
    if !mojoshader::available() {
        eprintln!("MojoShader not built (`cargo xtask peers --fetch-only`): nothing to check");
        return;
    }
    let mut shader = VS.to_vec();
    shader.push(0x0000ffff);
    for profile in [Profile::Spirv, Profile::D3d, Profile::Glsl] {
        let len = mojoshader::parse(profile, &bytes(&shader));
        assert!(len.is_some_and(|n| n > 0), "{profile:?}: {len:?}");
    }
    let spirv = mojoshader::parse(Profile::Spirv, &bytes(&shader)).unwrap();
    assert_eq!(spirv % 4, 0, "SPIR-V is whole words");
    assert_eq!(
        mojoshader::parse(Profile::Spirv, &bytes(&[0x12345678, 0x0000ffff])),
        None
    );
}
