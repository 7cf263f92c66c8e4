//! How D3DX applies a pass and names parameters, on effects built with d3dbc's own
//! writer: array selectors (-1 picks the first element, any other index outside the
//! array fails `BeginPass`), software-only shaders (bound as NULL), shader-constant
//! states longer than a register (only the first register gets the value), and
//! `name@annotation` parameter names. The rules are what Wine's d3dx9 effect tests
//! (`dlls/d3dx9_36/tests/effect.c`) state Windows does.

use d3dbc::fx::apply::{flatten, Values};
use d3dbc::fx::write::{EffectBuilder, PassSpec, StateSpec};
use d3dbc::fx::{Effect, Value};

/// A shader of just a version token and the end token.
fn shader(version: u32) -> Vec<u32> {
    vec![version, 0x0000_FFFF]
}

fn floats(e: &Effect, path: &str) -> Option<Vec<f32>> {
    let (ty, v) = e.resolve(path)?;
    let mut out = Vec::new();
    flatten(ty, v, &mut out);
    Some(out)
}

/// `test_effect_out_of_bounds_selector`, `test_effect_get_pass_desc`,
/// `test_effect_null_shader`: `VertexShader = vs_arr[i]` binds element `(int)i`; an
/// index of -1 binds element 0 without an error; any other index outside the array
/// makes `BeginPass` fail (`E_FAIL`) and binds no shader, while the pass's other
/// states are still set.
#[test]
fn array_selector_takes_minus_one_as_zero_and_fails_outside_the_array() {
    let elements = [0xFFFE_0101, 0xFFFE_0200, 0xFFFE_0300].map(shader);
    let data = EffectBuilder::new()
        .shader_array_parameter("vs_arr", elements.to_vec())
        .int_parameter("i", &[2])
        .technique(
            "t",
            vec![PassSpec::new("p")
                .state(
                    "VertexShader",
                    0,
                    StateSpec::Selector {
                        array: "vs_arr".into(),
                        index: "i".into(),
                        component: 0,
                    },
                )
                .state("D3DRS_FOGENABLE", 0, StateSpec::Dword(1))],
        )
        .build();
    let e = Effect::parse(&data).unwrap();
    let element = |k: usize| match e.resolve(&format!("vs_arr[{k}]")) {
        Some((_, Value::Object(id))) => e.object(*id),
        other => panic!("vs_arr[{k}]: {other:?}"),
    };
    let apply = |i: f32| {
        let mut v = Values::default();
        v.set("i", vec![i]);
        e.apply_pass(0, 0, &v).unwrap()
    };
    // The default, i = 2.
    let pass = e.apply_pass(0, 0, &Values::default()).unwrap();
    assert_eq!(pass.vertex_shader, Some(element(2)));
    assert!(pass.failure.is_none());
    for (i, k) in [(0.0, 0), (1.0, 1), (2.0, 2), (-1.0, 0)] {
        let pass = apply(i);
        assert_eq!(pass.vertex_shader, Some(element(k)), "i = {i}");
        assert!(pass.failure.is_none(), "i = {i}");
    }
    for i in [-2.0, 3.0, 100.0] {
        let pass = apply(i);
        assert_eq!(pass.vertex_shader, None, "i = {i}");
        assert!(pass.failure.is_some(), "i = {i}: BeginPass fails");
        let fog = pass.states.iter().find(|s| s.name == "D3DRS_FOGENABLE");
        assert_eq!(fog.map(|s| s.words.clone()), Some(vec![1]), "i = {i}");
    }
    // The listing shows the element the defaults select.
    assert!(e.listing().contains("vs_3_0"));
}

/// `test_effect_unsupported_shader`: D3DX creates an effect's shaders on its device;
/// a hardware device creates no `vs_3_sw` shader, so the pass binds NULL, directly or
/// through an array selector, while the other elements bind as usual.
#[test]
fn software_only_shaders_bind_no_shader() {
    let data = EffectBuilder::new()
        .shader_array_parameter("vs_arr", vec![shader(0xFFFE_0300), shader(0xFFFE_03FF)])
        .int_parameter("i", &[0])
        .technique(
            "direct",
            vec![PassSpec::new("p").state(
                "VertexShader",
                0,
                StateSpec::Shader(shader(0xFFFE_03FF)),
            )],
        )
        .technique(
            "selected",
            vec![PassSpec::new("p").state(
                "VertexShader",
                0,
                StateSpec::Selector {
                    array: "vs_arr".into(),
                    index: "i".into(),
                    component: 0,
                },
            )],
        )
        .build();
    let e = Effect::parse(&data).unwrap();
    let pass = e.apply_pass(0, 0, &Values::default()).unwrap();
    assert_eq!(pass.vertex_shader, None);
    assert!(pass.failure.is_none());
    let pass = e.apply_pass(1, 0, &Values::default()).unwrap();
    assert_eq!(
        pass.vertex_shader.map(d3dbc::fx::to_words),
        Some(shader(0xFFFE_0300))
    );
    let mut v = Values::default();
    v.set("i", vec![1.0]);
    let pass = e.apply_pass(1, 0, &v).unwrap();
    assert_eq!(pass.vertex_shader, None);
    assert!(pass.failure.is_none());
}

/// `test_effect_states`: `VertexShaderConstant4[4] = {4, 4, 4, 4, 5, 5, 5, 5, 6}` sets
/// c4 = (4, 4, 4, 4) and c5 = c6 = 0 (three registers, the value's first only), and
/// leaves c7 alone; `VertexShaderConstant1[1] = 3.0f` sets c1.x = 3.
#[test]
fn shader_constant_states_set_only_their_first_register() {
    let data = EffectBuilder::new()
        .technique(
            "t",
            vec![PassSpec::new("p")
                .state("VertexShaderConstant1", 1, StateSpec::Float(vec![3.0]))
                .state("VertexShaderConstant1", 3, StateSpec::Float(vec![2.0; 4]))
                .state(
                    "VertexShaderConstant4",
                    4,
                    StateSpec::Float(vec![4.0, 4.0, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 6.0]),
                )
                .state(
                    "PixelShaderConstant1",
                    0,
                    StateSpec::Float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
                )],
        )
        .build();
    let e = Effect::parse(&data).unwrap();
    let pass = e.apply_pass(0, 0, &Values::default()).unwrap();
    let c = |consts: &d3dbc::fx::apply::Constants, r: u32| {
        consts.float.iter().find(|(reg, _)| *reg == r).map(|x| x.1)
    };
    let vs = &pass.vs_constants;
    assert_eq!(c(vs, 1).map(|v| v[0]), Some(3.0));
    assert_eq!(c(vs, 3), Some([2.0; 4]));
    assert_eq!(c(vs, 4), Some([4.0; 4]));
    assert_eq!(c(vs, 5), Some([0.0; 4]));
    assert_eq!(c(vs, 6), Some([0.0; 4]));
    assert_eq!(c(vs, 7), None);
    let ps = &pass.ps_constants;
    assert_eq!(c(ps, 0), Some([1.0, 2.0, 3.0, 4.0]));
    assert_eq!(c(ps, 1), Some([0.0; 4]));
    assert_eq!(c(ps, 2), None);
}

/// `test_effect_variable_names`, `test_effect_parameter_block`, `test_effect_clone`:
/// `f@a` names annotation `a` of parameter `f`; names that index a non-array, follow a
/// member of a non-struct, leave a part empty or name an unknown annotation name
/// nothing.
#[test]
fn parameter_names_reach_annotations_with_at() {
    let data = EffectBuilder::new()
        .float_parameter("f", &[0.5])
        .annotation("a", 1.0)
        .annotation("b", 2.0)
        .float_parameter("v", &[1.0, 2.0, 3.0])
        .technique("t", vec![PassSpec::new("p")])
        .build();
    let e = Effect::parse(&data).unwrap();
    assert_eq!(e.parameters[0].annotations.len(), 2);
    assert_eq!(floats(&e, "f"), Some(vec![0.5]));
    assert_eq!(floats(&e, "f@a"), Some(vec![1.0]));
    assert_eq!(floats(&e, "f@b"), Some(vec![2.0]));
    assert_eq!(floats(&e, "v"), Some(vec![1.0, 2.0, 3.0]));
    for nothing in [
        "f@", "f@c", "f@a@b", "f@a[0]", "f@a.x", "f[0]", "f.", "f.x", "f[]", "v@a", "@a", "", "g",
    ] {
        assert!(e.resolve(nothing).is_none(), "{nothing:?} names nothing");
    }
    let (ty, _) = Effect::resolve_annotation(&e.parameters[0].annotations, "b").unwrap();
    assert_eq!(ty.name, "b");
}
