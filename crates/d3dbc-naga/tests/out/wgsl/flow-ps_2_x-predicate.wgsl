diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

var<private> reg0_0_: vec4<f32>;
var<private> reg0_1_: vec4<f32>;
var<private> reg0_2_: vec4<f32>;
var<private> reg1_0_: vec4<f32>;
var<private> reg3_0_: vec4<f32>;
var<private> reg3_1_: vec4<f32>;
var<private> reg8_0_: vec4<f32>;
var<private> reg19_0_: vec4<bool>;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 32>;

fn l1_() {
}

@fragment 
fn main(@location(8) color0_0_: vec4<f32>, @location(0) texcoord0_1_: vec4<f32>, @location(1) texcoord1_2_: vec4<f32>) -> PsOut {
    var count: i32;

    reg1_0_ = color0_0_;
    reg3_0_ = texcoord0_1_;
    reg3_1_ = texcoord1_2_;
    let _e6 = reg3_0_;
    let _e7 = reg3_1_;
    let _e12 = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    let _e13 = (_e6 != _e7);
    let _e17 = select(_e12, (_e12 + _e6), _e13);
    let _e18 = _e17.yyyy;
    let _e19 = _e7.yyyy;
    reg0_0_ = select(_e17, select(_e17, (select(_e18, vec4<f32>(), (_e19 == vec4<f32>())) * select(_e19, vec4<f32>(), (_e18 == vec4<f32>()))), vec4<bool>(false, true, false, false)), !(_e13.yyyy));
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    reg19_0_ = _e13;
    if _e13.x {
        let _e41 = reg0_0_;
        reg0_0_ = select(_e41, vec4<f32>(0.5f, 1f, 2f, 0.25f).xxxx, vec4<bool>(false, false, true, false));
    }
    let _e44 = reg19_0_;
    if !(_e44.z) {
        l1_();
    }
    count = vec4<i32>(2i, 0i, 0i, 0i).x;
    loop {
        let _e55 = count;
        if (_e55 <= 0i) {
            break;
        }
        let _e58 = reg19_0_;
        if _e58.w {
            break;
        }
        continuing {
            let _e61 = count;
            count = (_e61 - 1i);
        }
    }
    let _e64 = reg0_0_;
    return PsOut(_e64);
}
