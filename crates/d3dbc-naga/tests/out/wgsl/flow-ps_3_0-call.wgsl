diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

var<private> reg0_0_: vec4<f32>;
var<private> reg0_1_: vec4<f32>;
var<private> reg0_2_: vec4<f32>;
var<private> reg1_0_: vec4<f32>;
var<private> reg1_1_: vec4<f32>;
var<private> reg1_2_: vec4<f32>;
var<private> reg8_0_: vec4<f32>;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;
@group(0) @binding(5) 
var<uniform> b: array<vec4<u32>, 16>;

fn l1_() {
    let _e1 = reg0_0_;
    let _e3 = reg0_1_;
    reg0_0_ = (_e1 + _e3);
}

fn l2_() {
    let _e1 = reg0_0_;
    let _e3 = reg0_1_;
    reg0_0_ = (select(_e1, vec4<f32>(), (_e3 == vec4<f32>())) * select(_e3, vec4<f32>(), (_e1 == vec4<f32>())));
}

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(8) color0_2_: vec4<f32>) -> PsOut {
    reg1_0_ = texcoord0_0_;
    reg1_1_ = texcoord1_1_;
    reg1_2_ = color0_2_;
    let _e6 = reg1_0_;
    let _e7 = reg1_1_;
    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    l1_();
    let _e18 = b[2];
    if (_e18.x != 0u) {
        l2_();
    }
    let _e22 = reg0_0_;
    return PsOut(_e22);
}
