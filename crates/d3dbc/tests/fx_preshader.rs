//! Preshader evaluation against what D3DX on Windows returns: the operation table of
//! Wine's `test_effect_preshader_ops` (expected results as bit patterns, compared
//! exactly), run through the corpus copy of that test's effect (`wine_fx.jsonl`).

mod common;

use d3dbc::fx::apply::Values;
use d3dbc::fx::Effect;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn effect_bytes(name: &str) -> Option<Vec<u8>> {
    let records = common::records("wine_fx.jsonl")?;
    let r = records.iter().find(|r| r["name"] == name)?;
    Some(bytes(&common::dwords(&r["dwords"])))
}

const NAN: f32 = f32::NAN; // 0x7fc00000, as the test's NAN
const INF: f32 = f32::INFINITY;

struct OpTest {
    name: &'static str,
    expected: [u32; 4],
    /// `LightDiffuse[index]`, or `LightAmbient[0]` for `cmp`.
    index: u32,
    ambient: bool,
    v1: [f32; 4],
    v2: [f32; 4],
    v3: [f32; 4],
}

/// Wine's `test_effect_preshader_ops` table (dlls/d3dx9_36/tests/effect.c), ulps 0.
fn op_tests() -> Vec<OpTest> {
    let z = [0.0; 4];
    let base1 = [0.0, -0.0, -2.2, 3.402_823_5e38];
    let b2 = [1.0, 2.0, -3.0, 4.0];
    let v = [-0.3, 4.0, -2.2, 3.402_823_5e38];
    vec![
        OpTest {
            name: "exp",
            expected: [0x3f800000, 0x3f800000, 0x3e5edc66, 0x7f800000],
            index: 0,
            ambient: false,
            v1: base1,
            v2: b2,
            v3: z,
        },
        OpTest {
            name: "log",
            expected: [0, 0x40000000, 0x3f9199b7, 0x43000000],
            index: 1,
            ambient: false,
            v1: [0.0, 4.0, -2.2, 3.402_823_5e38],
            v2: b2,
            v3: z,
        },
        OpTest {
            name: "asin",
            expected: [0xbe9c00ad, 0xffc00000, 0xffc00000, 0xffc00000],
            index: 2,
            ambient: false,
            v1: v,
            v2: b2,
            v3: z,
        },
        OpTest {
            name: "acos",
            expected: [0x3ff01006, 0xffc00000, 0xffc00000, 0xffc00000],
            index: 3,
            ambient: false,
            v1: v,
            v2: b2,
            v3: z,
        },
        OpTest {
            name: "atan",
            expected: [0xbe9539d4, 0x3fa9b465, 0xbf927420, 0x3fc90fdb],
            index: 4,
            ambient: false,
            v1: v,
            v2: b2,
            v3: z,
        },
        OpTest {
            name: "atan2 test #1",
            expected: [0xbfc90fdb, 0x40490fdb, 0x80000000, 0x7fc00000],
            index: 5,
            ambient: false,
            v1: [-0.3, 0.0, -0.0, NAN],
            v2: [0.0, -0.0, 0.0, 1.0],
            v3: z,
        },
        OpTest {
            name: "atan2 test #2",
            expected: [0xbfc90fdb, 0, 0xc0490fdb, 0],
            index: 5,
            ambient: false,
            v1: [-0.3, 0.0, -0.0, -0.0],
            v2: [-0.0, 0.0, -0.0, 1.0],
            v3: z,
        },
        OpTest {
            name: "div",
            expected: [0, 0, 0, 0],
            index: 7,
            ambient: false,
            v1: [-0.3, 0.0, -2.2, NAN],
            v2: [0.0, -0.0, -3.0, 1.0],
            v3: z,
        },
        OpTest {
            name: "cmp",
            expected: [0x40a00000, 0x40000000, 0x40400000, 0x41000000],
            index: 0,
            ambient: true,
            v1: [-0.3, 0.0, 2.2, NAN],
            v2: [1.0, 2.0, 3.0, 4.0],
            v3: [5.0, 6.0, 7.0, 8.0],
        },
        OpTest {
            name: "0 * INF",
            expected: [0xffc00000, 0xffc00000, 0xc0d33334, 0x7f800000],
            index: 6,
            ambient: false,
            v1: base1,
            v2: [INF, INF, 3.0, 4.0],
            v3: z,
        },
    ]
}

#[test]
fn preshader_ops_give_windows_bits() {
    let Some(data) = effect_bytes("test_effect_preshader_ops_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let mut exact = 0;
    let mut failures = Vec::new();
    for t in op_tests() {
        let mut values = Values::default();
        values.set("opvect1", t.v1.to_vec());
        values.set("opvect2", t.v2.to_vec());
        values.set("opvect3", t.v3.to_vec());
        let pass = effect.apply_pass(0, 0, &values).unwrap();
        let want_name = if t.ambient {
            "LightAmbient"
        } else {
            "LightDiffuse"
        };
        let state = pass
            .states
            .iter()
            .find(|s| s.name == want_name && s.index == t.index)
            .unwrap_or_else(|| panic!("{want_name}[{}] not set", t.index));
        for (j, (&got, &want)) in state.words.iter().zip(&t.expected).enumerate() {
            if got == want {
                exact += 1;
            } else {
                failures.push(format!(
                    "{} component {j}: got {got:#010x}, want {want:#010x}",
                    t.name
                ));
            }
        }
    }
    eprintln!("{exact}/40 preshader op results bit-exact");
    assert!(failures.is_empty(), "{failures:#?}");
}

fn ulps_close(got: u32, want: u32, ulps: u32) -> bool {
    let key = |x: u32| -> i64 {
        let x = x as i32 as i64;
        if x < 0 {
            i32::MIN as i64 - x
        } else {
            x
        }
    };
    (key(got) - key(want)).unsigned_abs() <= u64::from(ulps)
}

/// `test_effect_preshader`: constants and states after `BeginPass(0)` of the preshader
/// effect with `g_Pos2 = (28, 29, 30, 31)`; the op results of
/// `test_effect_preshader_op_expected` (x86-64 sin/cos), with their ulps.
#[test]
fn preshader_effect_pass_matches_windows() {
    let Some(data) = effect_bytes("test_effect_preshader_effect_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let mut values = Values::default();
    values.set("g_Pos2", vec![28.0, 29.0, 30.0, 31.0]);
    let pass = effect.apply_pass(0, 0, &values).unwrap();
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut check = |ok: bool, what: String| {
        if ok {
            passed += 1;
        } else {
            failures.push(what);
        }
    };

    #[rustfmt::skip]
    let fvect_v: [[f32; 4]; 34] = [
        [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 0.0],
        [4.0, 0.0, 0.0, 0.0], [5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 0.0], [4.0, 0.0, 0.0, 0.0],
        [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 0.0], [12.0, 0.0, 0.0, 0.0], [13.0, 14.0, 15.0, 16.0],
        [11.0, 12.0, 13.0, 0.0], [21.0, 22.0, 23.0, 0.0], [31.0, 32.0, 33.0, 0.0], [41.0, 42.0, 43.0, 0.0],
        [11.0, 21.0, 31.0, 0.0], [12.0, 22.0, 32.0, 0.0], [13.0, 23.0, 33.0, 0.0], [14.0, 24.0, 34.0, 0.0],
        [11.0, 12.0, 13.0, 14.0], [21.0, 22.0, 23.0, 24.0], [31.0, 32.0, 33.0, 34.0], [11.0, 21.0, 31.0, 41.0],
        [12.0, 22.0, 32.0, 42.0], [13.0, 23.0, 33.0, 43.0], [9.0, 10.0, 11.0, 0.0], [12.0, 0.0, 0.0, 0.0],
        [13.0, 14.0, 15.0, 16.0], [92.0, 0.0, 0.0, 0.0], [93.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0],
        [91.0, 0.0, 0.0, 0.0], [4.0, 5.0, 6.0, 7.0],
    ];
    for (r, want) in fvect_v.iter().enumerate() {
        let got = pass
            .vs_constants
            .float
            .iter()
            .find(|(reg, _)| *reg as usize == r)
            .map(|x| x.1);
        check(
            got == Some(*want),
            format!("vs c{r}: got {got:?}, want {want:?}"),
        );
    }
    #[rustfmt::skip]
    let fvect_p: [[f32; 4]; 14] = [
        [11.0, 21.0, 0.0, 0.0], [12.0, 22.0, 0.0, 0.0], [13.0, 23.0, 0.0, 0.0], [11.0, 12.0, 0.0, 0.0],
        [21.0, 22.0, 0.0, 0.0], [31.0, 32.0, 0.0, 0.0], [11.0, 12.0, 0.0, 0.0], [21.0, 22.0, 0.0, 0.0],
        [11.0, 21.0, 0.0, 0.0], [12.0, 22.0, 0.0, 0.0], [11.0, 12.0, 13.0, 0.0], [21.0, 22.0, 23.0, 0.0],
        [11.0, 21.0, 31.0, 0.0], [12.0, 22.0, 32.0, 0.0],
    ];
    for (r, want) in fvect_p.iter().enumerate() {
        let got = pass
            .ps_constants
            .float
            .iter()
            .find(|(reg, _)| *reg as usize == r)
            .map(|x| x.1);
        check(
            got == Some(*want),
            format!("ps c{r}: got {got:?}, want {want:?}"),
        );
    }
    let i0 = pass
        .ps_constants
        .int
        .iter()
        .find(|(r, _)| *r == 0)
        .map(|x| x.1);
    check(i0 == Some([4, 3, 2, 1]), format!("ps i0: {i0:?}"));
    for (r, want) in [true, false, true, false, true, true].iter().enumerate() {
        let got = pass
            .ps_constants
            .bool
            .iter()
            .find(|(reg, _)| *reg as usize == r)
            .map(|x| x.1);
        check(
            got == Some(*want),
            format!("ps b{r}: got {got:?}, want {want}"),
        );
    }

    // (name, result, ulps): lights i % 8, Diffuse for i < 8, Ambient below 16, Specular.
    #[rustfmt::skip]
    let ops: [(&str, [u32; 4], u32); 19] = [
        ("1 / op", [0x7f800000, 0xff800000, 0xbee8ba2e, 0x00200000], 0),
        ("rsq", [0x7f800000, 0x7f800000, 0x3f2c985c, 0x1f800001], 1),
        ("mul", [0x00000000, 0x80000000, 0x40d33334, 0x7f800000], 0),
        ("add", [0x3f800000, 0x40000000, 0xc0a66666, 0x7f7fffff], 0),
        ("lt", [0x3f800000, 0x3f800000, 0x00000000, 0x00000000], 0),
        ("ge", [0x00000000, 0x00000000, 0x3f800000, 0x3f800000], 0),
        ("neg", [0x80000000, 0x00000000, 0x400ccccd, 0xff7fffff], 0),
        ("rcp", [0x7f800000, 0xff800000, 0xbee8ba2e, 0x00200000], 0),
        ("frac", [0x00000000, 0x00000000, 0x3f4ccccc, 0x00000000], 0),
        ("min", [0x00000000, 0x80000000, 0xc0400000, 0x40800000], 0),
        ("max", [0x3f800000, 0x40000000, 0xc00ccccd, 0x7f7fffff], 0),
        ("sin", [0x00000000, 0x80000000, 0xbf4ef99e, 0xbf0599b3], 0),
        ("cos", [0x3f800000, 0x3f800000, 0xbf16a803, 0x3f5a5f96], 0),
        ("den mul", [0x7f800000, 0xff800000, 0xbb94f209, 0x000051ec], 0),
        ("dot", [0x00000000, 0x7f800000, 0x41f00000, 0x00000000], 0),
        ("prec", [0x2b8cbccc, 0x2c0cbccc, 0xac531800, 0x00000000], 0),
        ("dotswiz", [0xc00ccccd, 0xc0d33334, 0xc10ccccd, 0], 0),
        ("reladdr", [0xc00ccccd, 0x3f800000, 0, 0x41200000], 0),
        ("reladdr2", [0, 0, 0x447ac000, 0x40000000], 0),
    ];
    for (i, (name, want, ulps)) in ops.iter().enumerate() {
        let field = if i < 8 {
            "LightDiffuse"
        } else if i < 16 {
            "LightAmbient"
        } else {
            "LightSpecular"
        };
        let got = pass
            .states
            .iter()
            .rev()
            .find(|s| s.name == field && s.index as usize == i % 8)
            .map(|s| s.words.clone());
        for (j, &w) in want.iter().enumerate() {
            let g = got.as_ref().and_then(|v| v.get(j).copied());
            check(
                g.is_some_and(|g| ulps_close(g, w, *ulps)),
                format!("{name} [{j}]: got {g:#x?}, want {w:#x}"),
            );
        }
    }

    let rs = |name: &str| {
        pass.states
            .iter()
            .rev()
            .find(|s| s.name == name)
            .map(|s| s.words[0])
    };
    check(
        rs("D3DRS_FOGDENSITY") == Some(0),
        format!("fog density {:?}", rs("D3DRS_FOGDENSITY")),
    );
    check(
        rs("D3DRS_FOGSTART") == Some(4f32.to_bits()),
        format!("fog start {:?}", rs("D3DRS_FOGSTART")),
    );
    check(
        rs("D3DRS_POINTSCALE_A") == Some(4f32.to_bits()),
        format!("point scale A {:?}", rs("D3DRS_POINTSCALE_A")),
    );
    check(
        rs("D3DRS_POINTSCALE_B") == Some(12f32.to_bits()),
        format!("point scale B {:?}", rs("D3DRS_POINTSCALE_B")),
    );

    let samp = |stage: u32, name: &str| {
        pass.states
            .iter()
            .rev()
            .find(|s| {
                s.class == d3dbc::fx::StateClass::SamplerState && s.index == stage && s.name == name
            })
            .map(|s| s.words[0])
    };
    for (stage, min) in [(0, 3), (1, 1), (257, 1), (259, 3)] {
        let got = samp(stage, "D3DSAMP_MINFILTER");
        check(
            got == Some(min),
            format!("sampler {stage} minfilter {got:?}, want {min}"),
        );
        let got = samp(stage, "D3DSAMP_MAGFILTER");
        check(
            got == Some(min),
            format!("sampler {stage} magfilter {got:?}, want {min}"),
        );
    }
    eprintln!(
        "{passed} preshader-effect expectations met, {} not",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

/// `test_effect_states`: the states after `BeginPass(0)` of the states effect.
#[test]
fn states_effect_pass_matches_windows() {
    let Some(data) = effect_bytes("test_effect_states_effect_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let pass = effect.apply_pass(0, 0, &Values::default()).unwrap();
    let find = |name: &str, index: u32| {
        pass.states
            .iter()
            .rev()
            .find(|s| s.name == name && s.index == index)
            .map(|s| s.words.clone())
    };
    assert_eq!(find("D3DRS_BLENDOP", 0), Some(vec![2]));
    assert_ne!(find("D3DRS_ZENABLE", 0), Some(vec![0]));
    assert_eq!(find("LightEnable", 2), Some(vec![1]));
    let pos = find("LightPosition", 2).expect("light 2 position");
    assert_eq!(&pos[..3], &[4f32.to_bits(), 5f32.to_bits(), 6f32.to_bits()]);
    let c3 = pass
        .vs_constants
        .float
        .iter()
        .find(|(r, _)| *r == 3)
        .map(|x| x.1);
    assert_eq!(c3, Some([2.0; 4]));
    // Newer versions of the effect: `VertexShaderConstant1[1] = 3.0f`,
    // `VertexShaderConstant4[2] = 1`, `VertexShaderConstant4[4] = {4, 4, 4, 4, 5, 5, 5,
    // 5, 6}`: c1.x = 3, c2.x = 1, c4 = 4, c5 = c6 = 0, c7 untouched.
    let c = |r: u32| {
        pass.vs_constants
            .float
            .iter()
            .find(|(reg, _)| *reg == r)
            .map(|x| x.1)
    };
    assert_eq!(c(1).map(|v| v[0]), Some(3.0));
    assert_eq!(c(2).map(|v| v[0]), Some(1.0));
    assert_eq!(c(4), Some([4.0; 4]));
    assert_eq!(c(5), Some([0.0; 4]));
    assert_eq!(c(6), Some([0.0; 4]));
    assert_eq!(c(7), None);
    assert_eq!(
        find("D3DSAMP_MIPFILTER", 1),
        Some(vec![2]),
        "sampler 1 mipfilter LINEAR"
    );
    assert_eq!(find("D3DTSS_ALPHAOP", 3), Some(vec![4]));
    // `vertexshader = vs_arr1[1]`: the vs_2_0 element.
    let vs = d3dbc::fx::to_words(pass.vertex_shader.expect("a vertex shader is selected"));
    assert_eq!(vs[0], 0xFFFE_0200);
}

/// `test_effect_preshader`, pass 1: `VertexShader = vs_arr[g_iVect.z]` selects the
/// element the selector program computes from the parameter's value.
#[test]
fn array_selector_picks_the_element_windows_binds() {
    let Some(data) = effect_bytes("test_effect_preshader_effect_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let selected = |values: &Values| effect.apply_pass(0, 1, values).unwrap().vertex_shader;
    let element = |k: usize| match effect.resolve(&format!("vs_arr[{k}]")) {
        Some((_, d3dbc::fx::Value::Object(id))) => Some(effect.object(*id)),
        other => panic!("vs_arr[{k}]: {other:?}"),
    };
    // Default g_iVect = (4, 3, 2, 1): element 2.
    assert_eq!(selected(&Values::default()), element(2));
    // The test's fvect2 = (0, 0, 1, 0): element 1 (`test_effect_preshader_compare_shader(device, 1)`).
    let mut v = Values::default();
    v.set("g_iVect", vec![0.0, 0.0, 1.0, 0.0]);
    assert_eq!(selected(&v), element(1));
    v.set("g_iVect", vec![0.0, 0.0, 0.0, 0.0]);
    assert_eq!(selected(&v), element(0));
    assert_ne!(element(0), element(1));
    // `test_effect_out_of_bounds_selector`: z = -1 binds element 0 and succeeds;
    // z = 3 or -2 fails BeginPass (E_FAIL) and binds no shader.
    v.set("g_iVect", vec![1.0, 1.0, -1.0, 1.0]);
    let pass = effect.apply_pass(0, 1, &v).unwrap();
    assert_eq!((pass.vertex_shader, pass.failure), (element(0), None));
    for z in [3.0, -2.0] {
        v.set("g_iVect", vec![1.0, 1.0, z, 1.0]);
        let pass = effect.apply_pass(0, 1, &v).unwrap();
        assert!(
            pass.vertex_shader.is_none() && pass.failure.is_some(),
            "z = {z}"
        );
    }
}

/// `test_effect_unsupported_shader`: the `vs_3_sw` element binds no vertex shader
/// (tech0, and tech1 with `i = 1`); tech1 with `i = 0` binds the `vs_3_0` element.
#[test]
fn software_shader_elements_bind_nothing() {
    let Some(data) = effect_bytes("test_effect_unsupported_shader_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let vs = |t: usize, i: f32| {
        let mut v = Values::default();
        v.set("i", vec![i]);
        let pass = effect.apply_pass(t, 0, &v).unwrap();
        assert!(pass.failure.is_none());
        pass.vertex_shader.map(|c| d3dbc::fx::to_words(c)[0])
    };
    assert_eq!(vs(0, 0.0), None);
    assert_eq!(vs(1, 0.0), Some(0xFFFE_0300));
    assert_eq!(vs(1, 1.0), None);
    // `test_effect_null_shader`: i = 2 is outside `vs_arr[2]`.
    if let Some(data) = effect_bytes("test_effect_null_shader_blob") {
        let effect = Effect::parse(&data).unwrap();
        let mut v = Values::default();
        v.set("i", vec![2.0]);
        assert!(effect.apply_pass(1, 0, &v).unwrap().failure.is_some());
    }
}

/// `test_effect_null_shader`: `VertexShader = null` sets no shader (and lists none);
/// `test_effect_skip_constants`: constants land where `register()` put them.
#[test]
fn null_shaders_and_register_bound_constants() {
    if let Some(data) = effect_bytes("test_effect_null_shader_blob") {
        let effect = Effect::parse(&data).unwrap();
        let pass = effect.apply_pass(0, 0, &Values::default()).unwrap();
        assert!(pass.vertex_shader.is_none());
        assert!(effect.listing().contains(
            "technique tech0\n{\n    pass p0\n    {\n        //No embedded vertex shader\n"
        ));
        // tech1 selects from an array declared without shaders: nothing to bind.
        let pass = effect.apply_pass(1, 0, &Values::default()).unwrap();
        assert!(pass.vertex_shader.is_none());
    }
    if let Some(data) = effect_bytes("test_effect_skip_constants_blob") {
        let effect = Effect::parse(&data).unwrap();
        let mut v = Values::default();
        v.set("v1", vec![3.0]);
        v.set("v4", vec![7.0]);
        let pass = effect.apply_pass(0, 0, &v).unwrap();
        let c = |r: u32| {
            pass.vs_constants
                .float
                .iter()
                .find(|(reg, _)| *reg == r)
                .map(|x| x.1[0])
        };
        assert_eq!(c(2), Some(3.0), "v1 : register(c2)");
        assert_eq!(c(4), Some(7.0), "v4 : register(c4)");
        assert_eq!(
            (c(5), c(6)),
            (Some(11.0), Some(22.0)),
            "v6[2] : register(c5)"
        );
        let ps_a = pass
            .states
            .iter()
            .find(|s| s.name == "D3DRS_POINTSCALE_A")
            .unwrap();
        assert_eq!(ps_a.words, vec![7f32.to_bits()], "PointScale_A = v4");
    }
}

fn light_specular(effect: &Effect, v: &Values, light: u32) -> Vec<u32> {
    let pass = effect.apply_pass(0, 0, v).unwrap();
    pass.states
        .iter()
        .rev()
        .find(|s| s.name == "LightSpecular" && s.index == light)
        .map(|s| s.words.clone())
        .unwrap()
}

/// `test_effect_preshader_relative_addressing`: `LightSpecular[1]` and `[2]` index
/// parameters by `g_iVect` components far outside their arrays (the pass's
/// `vs_arr2[g_iVect.w - 1]` selector is then out of range too: the other states are
/// still set). Expected bit patterns from the test's three tables, compared exactly.
#[test]
fn relative_addressing_out_of_bounds_matches_windows() {
    let Some(data) = effect_bytes("test_effect_preshader_effect_blob") else {
        return;
    };
    let effect = Effect::parse(&data).unwrap();
    let mut v = Values::default();
    v.set("opvect1", vec![1001.0, 1002.0, 1003.0, 1004.0]);
    v.set(
        "g_Selector",
        vec![
            2001.0, 2002.0, 2003.0, 2004.0, 3001.0, 3002.0, 3003.0, 3004.0, 5001.0, 5002.0, 5003.0,
            5004.0,
        ],
    );
    let t: Vec<([f32; 4], [f32; 4], [u32; 4])> = vec![
        (
            [1.0, 2.0, 3.0, 4.0],
            [101.0, 101.0, 101.0, 101.0],
            [0, 0x42ca0000, 0x3f800000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [3333.0, 1094.0, 2222.0, 3333.0],
            [0x447ac000, 0x45505000, 0x3f800000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [3333.0, 1094.0, 2222.0, 1.0],
            [0x447ac000, 0x3f800000, 0x447a8000, 0x453b9000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [1.0, 1094.0, 2222.0, 3333.0],
            [0x447ac000, 0x45505000, 0x3f800000, 0x453ba000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [1111.0, 1094.0, 2222.0, 1111.0],
            [0x447ac000, 0x448ae000, 0, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [1111.0, 1094.0, 2222.0, 3333.0],
            [0x447ac000, 0x45505000, 0x3f800000, 0],
        ),
        (
            [-1111.0, 1094.0, -2222.0, -3333.0],
            [4.0, 3.0, 2.0, 1.0],
            [0x447ac000, 0x40800000, 0x447a8000, 0x453b9000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-1.0, -1.0, -1.0, -1.0],
            [0, 0xbf800000, 0, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-2.0, -2.0, -2.0, -2.0],
            [0, 0xc0000000, 0x459c4800, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-3.0, -3.0, -3.0, -3.0],
            [0, 0xc0400000, 0x453b9000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-4.0, -4.0, -4.0, -4.0],
            [0, 0xc0800000, 0x44fa2000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-5.0, -5.0, -5.0, -5.0],
            [0, 0xc0a00000, 0x459c5000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-6.0, -6.0, -6.0, -6.0],
            [0, 0xc0c00000, 0x453ba000, 0xc1400000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-7.0, -7.0, -7.0, -7.0],
            [0, 0xc0e00000, 0x44fa4000, 0x40400000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-8.0, -8.0, -8.0, -8.0],
            [0, 0xc1000000, 0, 0x44fa6000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-9.0, -9.0, -9.0, -9.0],
            [0, 0xc1100000, 0, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-10.0, -10.0, -10.0, -10.0],
            [0, 0xc1200000, 0xc1200000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-11.0, -11.0, -11.0, -11.0],
            [0, 0xc1300000, 0x3f800000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-12.0, -12.0, -12.0, -12.0],
            [0, 0xc1400000, 0x447a4000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 5.0, 5.0, 5.0],
            [0, 0x40a00000, 0x3f800000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-1111.0, 1094.0, -2222.0, -3333.0],
            [0x447ac000, 0xc5505000, 0x459c5000, 0x40000000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-3333.0, 1094.0, -2222.0, -1111.0],
            [0x447ac000, 0xc48ae000, 0x44fa4000, 0x3f800000],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-3333.0, 1094.0, -2222.0, -3333.0],
            [0x447ac000, 0xc5505000, 0x459c5000, 0],
        ),
        (
            [1.0, 2.0, 3.0, 4.0],
            [-1111.0, 1094.0, -2222.0, -1111.0],
            [0x447ac000, 0xc48ae000, 0x44fa4000, 0x40400000],
        ),
    ];
    let mut bad = 0;
    for (i, (op2, iv, want)) in t.iter().enumerate() {
        v.set("opvect2", op2.to_vec());
        v.set("g_iVect", iv.to_vec());
        let got = light_specular(&effect, &v, 1);
        if got[..4] != want[..] {
            bad += 1;
            eprintln!("oob {i}: got {got:08x?} want {want:08x?}");
        }
    }
    let zw: [[u32; 2]; 16] = [
        [0, 0x44fa2000],
        [0x447a8000, 0x453b9000],
        [0x40000000, 0x459c4800],
        [0xbf800000, 0],
        [0x447a4000, 0],
        [0x3f800000, 0],
        [0xbf800000, 0],
        [0, 0],
        [0, 0x447a4000],
        [0x44fa4000, 0x3f800000],
        [0x453ba000, 0xbf800000],
        [0x459c5000, 0],
        [0x44fa2000, 0],
        [0x453b9000, 0],
        [0x459c4800, 0],
        [0, 0],
    ];
    v.set("opvect2", vec![1.0, 2.0, 3.0, 4.0]);
    for i in -100i32..100 {
        v.set("g_iVect", vec![-1.0, -1.0, -1.0, i as f32]);
        let got = light_specular(&effect, &v, 1);
        let want = zw[(i as u32 % 16) as usize];
        if got[2..4] != want[..] {
            bad += 1;
            eprintln!("w {i}: got {:08x?} want {want:08x?}", &got[2..4]);
        }
    }
    let imm: Vec<(i32, [u32; 4])> = vec![
        (-1000000, [0, 0x40800000, 0x45bbd800, 0x41300000]),
        (-1001, [0x448d4000, 0x41300000, 0, 0]),
        (-32, [0x448d4000, 0x40800000, 0, 0]),
        (-31, [0x45843000, 0x41400000, 0, 0]),
        (-30, [0x46a64000, 0x41400000, 0x447a4000, 0x3f800000]),
        (-29, [0, 0x447a4000, 0x447a8000, 0x40000000]),
        (-28, [0, 0, 0x447ac000, 0x40400000]),
        (-27, [0, 0x3f800000, 0, 0]),
        (-26, [0, 0x41100000, 0x45bbd800, 0x41300000]),
        (-25, [0, 0x41300000, 0, 0]),
        (-24, [0, 0x41600000, 0, 0]),
        (-23, [0, 0, 0, 0]),
        (-22, [0, 0, 0, 0]),
        (-21, [0, 0x40a00000, 0, 0]),
        (-20, [0, 0x41500000, 0, 0]),
        (-19, [0, 0x41500000, 0, 0]),
        (-18, [0, 0xc1900000, 0, 0]),
        (-17, [0, 0, 0, 0]),
        (-16, [0, 0x40800000, 0, 0]),
        (-15, [0, 0x41400000, 0, 0]),
        (-14, [0, 0x41400000, 0, 0]),
        (-13, [0, 0x447a4000, 0x447a4000, 0x3f800000]),
        (-12, [0, 0, 0, 0]),
        (-11, [0, 0x3f800000, 0, 0]),
        (-10, [0, 0x41100000, 0, 0]),
        (-9, [0, 0x41300000, 0, 0]),
        (-8, [0, 0x41600000, 0, 0]),
        (-7, [0, 0, 0, 0]),
        (-6, [0, 0, 0, 0]),
        (-5, [0, 0x40a00000, 0, 0]),
        (-4, [0, 0x41500000, 0, 0]),
        (-3, [0, 0x41500000, 0, 0]),
        (-2, [0, 0xc0000000, 0, 0]),
        (-1, [0, 0, 0, 0]),
        (0, [0x45052000, 0x40800000, 0x447a4000, 0x3f800000]),
        (1, [0x467e6000, 0x41400000, 0x447a8000, 0x40000000]),
        (2, [0, 0x41400000, 0x447ac000, 0x40400000]),
        (3, [0, 0x447a4000, 0, 0]),
        (4, [0, 0, 0x45bbd800, 0x41300000]),
        (5, [0, 0x3f800000, 0, 0]),
        (6, [0, 0x41100000, 0, 0]),
        (7, [0, 0x41300000, 0, 0]),
        (8, [0, 0x41600000, 0, 0]),
        (9, [0, 0, 0, 0]),
        (10, [0, 0, 0, 0]),
        (11, [0, 0x40a00000, 0, 0]),
        (12, [0, 0x41500000, 0, 0]),
        (13, [0, 0x41500000, 0, 0]),
        (14, [0, 0x41600000, 0, 0]),
        (15, [0, 0, 0, 0]),
        (16, [0, 0x40800000, 0, 0]),
        (17, [0x45052000, 0x41400000, 0x447a4000, 0x3f800000]),
        (18, [0x467e6000, 0x41400000, 0x447a8000, 0x40000000]),
        (19, [0, 0x447a4000, 0x447ac000, 0x40400000]),
        (20, [0, 0, 0, 0]),
        (21, [0, 0x3f800000, 0x45bbd800, 0x41300000]),
        (22, [0, 0x41100000, 0, 0]),
        (23, [0, 0x41300000, 0, 0]),
        (24, [0, 0x41600000, 0, 0]),
        (25, [0, 0, 0, 0]),
        (26, [0, 0, 0, 0]),
        (27, [0, 0x40a00000, 0, 0]),
        (28, [0, 0x41500000, 0, 0]),
        (29, [0, 0x41500000, 0, 0]),
        (30, [0, 0x41f00000, 0, 0]),
        (31, [0, 0, 0, 0]),
        (1001, [0, 0, 0, 0]),
        (1000000, [0, 0x40800000, 0, 0]),
    ];
    for (i, want) in imm {
        v.set("g_iVect", vec![i as f32; 4]);
        let got = light_specular(&effect, &v, 2);
        if got[..4] != want[..] {
            bad += 1;
            eprintln!("imm {i}: got {got:08x?} want {want:08x?}");
        }
    }
    assert_eq!(bad, 0);
}
