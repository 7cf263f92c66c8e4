//! Naming what an input is when it is not something d3dbc reads as a shader: later
//! shader models' containers (DXBC, DXIL), SPIR-V, shader source (HLSL, GLSL, Metal),
//! D3D10+ effects, and common non-shader files, each with one line saying what it is and
//! what d3dbc reads instead. [`what_is`] looks at the first bytes only.

/// What a known non-D3D9 input is, and what d3dbc reads instead: one sentence.
pub fn what_is(bytes: &[u8]) -> Option<String> {
    let head4 = |m: &[u8]| bytes.len() >= m.len() && bytes[..m.len()] == *m;
    let dword = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let what: &str = if head4(b"DXBC") {
        let dxil = bytes.windows(4).take(4096).any(|w| w == b"DXIL");
        if dxil {
            "a DXIL container (shader model 6, dxc): d3dbc reads Direct3D 9 shader bytecode (shader models 1-3, fxc /T vs_3_0 or ps_3_0)"
        } else {
            "a DXBC container (Direct3D 10+ shader model 4/5 bytecode): d3dbc reads Direct3D 9 shader bytecode (shader models 1-3, fxc /T vs_3_0 or ps_3_0); vkd3d-compiler -b d3dbc writes it from HLSL"
        }
    } else if dword == Some(0x0723_0203) {
        "a SPIR-V module: d3dbc reads Direct3D 9 shader bytecode and writes SPIR-V from it (`d3dbc translate --target spirv`); spirv-dis lists this one"
    } else if matches!(dword, Some(0xFEFF_1001 | 0xFEFF_1011 | 0xFEFF_2001)) {
        "a Direct3D 10/11 effect (fx_4_0, fx_4_1 or fx_5_0): d3dbc reads Direct3D 9 effects (fx_2_0)"
    } else if head4(b"XNBw") || head4(b"XNBx") || head4(b"XNBm") || head4(b"XNBa") {
        "an XNA content file (.xnb)"
    } else if head4(b"\x89PNG") || head4(b"DDS ") || head4(b"\xFF\xD8\xFF") {
        "an image, not a shader"
    } else if head4(b"PK\x03\x04") || head4(b"\x1F\x8B") || head4(b"7z\xBC\xAF") {
        "an archive (zip, gzip or 7z): unpack it first (`d3dbc rip` finds shaders in uncompressed bytes only)"
    } else {
        return text_kind(bytes).map(str::to_string);
    };
    Some(what.to_string())
}

/// Shader source recognised by its text (the first 8 KiB).
fn text_kind(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(8192)];
    let text = super::decode_text(head);
    if super::is_binary(head) {
        return None;
    }
    let has = |w: &str| text.contains(w);
    if has("#include <metal_stdlib>") {
        Some("Metal shading language source: d3dbc reads Direct3D 9 shader bytecode and assembly; it writes MSL (`d3dbc translate --target msl`)")
    } else if text.trim_start().starts_with("#version") || has("gl_FragColor") || has("gl_Position")
    {
        Some("GLSL source: d3dbc reads Direct3D 9 shader bytecode and assembly; it writes GLSL (`d3dbc translate --target glsl`)")
    } else if has("technique") && (has("pass") || has("compile ")) {
        Some("effect source (HLSL .fx): compile it with fxc /T fx_2_0 (or vkd3d-compiler -p fx_2_0) and give d3dbc the .fxo")
    } else if [
        "float4",
        "float3",
        "sampler2D",
        "SV_",
        ": POSITION",
        ": COLOR",
        "tex2D(",
    ]
    .iter()
    .any(|w| has(w))
    {
        Some("HLSL source: d3dbc reads what a compiler makes of it; compile it with fxc /T vs_3_0 or ps_3_0 (or vkd3d-compiler -x hlsl -b d3dbc -p ps_3_0) and give d3dbc the bytecode")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_each_known_format() {
        let cases: [(&[u8], &str); 8] = [
            (b"DXBC\x01\x02\x03\x04rest", "DXBC"),
            (&[0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0], "SPIR-V"),
            (&[0x01, 0x10, 0xFF, 0xFE, 0, 0, 0, 0], "fx_4_0"),
            (b"XNBw\x05\x01", "XNA"),
            (b"#version 450\nvoid main() {}\n", "GLSL"),
            (
                b"float4 main(float2 uv : TEXCOORD0) : COLOR { return 1; }\n",
                "HLSL source",
            ),
            (
                b"technique T { pass P { PixelShader = compile ps_2_0 main(); } }",
                "fx_2_0",
            ),
            (b"\x89PNG\r\n\x1a\n", "image"),
        ];
        for (bytes, want) in cases {
            let got = what_is(bytes).unwrap_or_default();
            assert!(got.contains(want), "{want}: {got}");
        }
        assert_eq!(what_is(b"just some words"), None);
        assert_eq!(what_is(&[0u8; 3]), None);
    }
}
