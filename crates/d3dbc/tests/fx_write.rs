//! The effect writer and the bundled example effect: `examples/tint.fxo` is exactly what
//! the writer makes of `examples/tint_vs.asm` and `examples/tint_ps.asm` (a `float4 tint`
//! parameter, technique `Tint`, pass `P0` with `CullMode = NONE` and both shaders), and
//! it reads back, lists and applies. `D3DBC_BLESS=1 cargo test --test fx_write`
//! rewrites it.

use d3dbc::fx::apply::Values;
use d3dbc::fx::write::{EffectBuilder, PassSpec, StateSpec};
use d3dbc::fx::Effect;

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn assemble(file: &str) -> Vec<u32> {
    let text = std::fs::read_to_string(examples().join(file)).unwrap();
    let mut shader = d3dbc::asm::assemble(&text, &Default::default()).unwrap();
    if let Some(ctab) = d3dbc::asm::ctab_header::ctab_from_listing(&text, file).unwrap() {
        d3dbc::asm::ctab_header::embed(&mut shader, &ctab);
    }
    shader.encode()
}

fn tint_effect() -> Vec<u8> {
    EffectBuilder::new()
        .float_parameter("tint", &[1.0, 0.5, 0.25, 1.0])
        .technique(
            "Tint",
            vec![PassSpec::new("P0")
                .state("D3DRS_CULLMODE", 0, StateSpec::Dword(1))
                .state(
                    "VertexShader",
                    0,
                    StateSpec::Shader(assemble("tint_vs.asm")),
                )
                .state("PixelShader", 0, StateSpec::Shader(assemble("tint_ps.asm")))],
        )
        .build()
}

#[test]
fn bundled_example_effect_is_reproducible() {
    let built = tint_effect();
    let path = examples().join("tint.fxo");
    if std::env::var_os("D3DBC_BLESS").is_some() {
        std::fs::write(&path, &built).unwrap();
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        built,
        "run with D3DBC_BLESS=1"
    );
}

#[test]
fn written_effect_reads_lists_and_applies() {
    let data = tint_effect();
    let e = Effect::parse(&data).unwrap();
    assert_eq!(e.size, data.len());
    assert_eq!(e.parameters[0].ty.name, "tint");
    assert_eq!(e.techniques[0].passes[0].states.len(), 3);
    let listing = e.listing();
    assert!(
        listing.contains("technique Tint\n{\n    pass P0\n"),
        "{listing}"
    );
    assert!(listing.contains("        vertexshader = \n            asm {\n"));
    assert!(listing.contains("                mul r0, c0, t0\n"));
    let pass = e.apply_pass(0, 0, &Values::default()).unwrap();
    assert_eq!(pass.ps_constants.float, vec![(0, [1.0, 0.5, 0.25, 1.0])]);
    let cull = pass
        .states
        .iter()
        .find(|s| s.name == "D3DRS_CULLMODE")
        .unwrap();
    assert_eq!(cull.words, vec![1]);
    let mut v = Values::default();
    v.set("tint", vec![0.0, 1.0, 0.0, 1.0]);
    let pass = e.apply_pass(0, 0, &v).unwrap();
    assert_eq!(pass.ps_constants.float, vec![(0, [0.0, 1.0, 0.0, 1.0])]);
    // A parameter reference state.
    let data = EffectBuilder::new()
        .float_parameter("fog", &[2.5])
        .technique(
            "T",
            vec![PassSpec::new("P").state("D3DRS_FOGSTART", 0, StateSpec::Parameter("fog".into()))],
        )
        .build();
    let e = Effect::parse(&data).unwrap();
    let pass = e.apply_pass(0, 0, &Values::default()).unwrap();
    assert_eq!(pass.states[0].words, vec![2.5f32.to_bits()]);
}
