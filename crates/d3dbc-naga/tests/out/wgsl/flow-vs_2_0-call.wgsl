struct VsOut {
    @builtin(position) position: vec4<f32>,
    @location(0) texcoord0_: vec4<f32>,
    @location(1) texcoord1_: vec4<f32>,
    @location(2) texcoord2_: vec4<f32>,
    @location(3) texcoord3_: vec4<f32>,
    @location(4) texcoord4_: vec4<f32>,
    @location(5) texcoord5_: vec4<f32>,
    @location(6) texcoord6_: vec4<f32>,
    @location(7) texcoord7_: vec4<f32>,
    @location(8) color0_: vec4<f32>,
    @location(9) color1_: vec4<f32>,
    @location(10) fog0_: vec4<f32>,
}

var<private> reg0_0_: vec4<f32>;
var<private> reg0_1_: vec4<f32>;
var<private> reg0_2_: vec4<f32>;
var<private> reg1_0_: vec4<f32>;
var<private> reg1_1_: vec4<f32>;
var<private> reg4_0_: vec4<f32>;
@group(0) @binding(0) 
var<uniform> c: array<vec4<f32>, 256>;
@group(0) @binding(2) 
var<uniform> b: array<vec4<u32>, 16>;
@group(0) @binding(6) 
var<uniform> driver: array<vec4<f32>, 30>;

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

@vertex 
fn main(@location(0) v0_: vec4<f32>, @location(1) v1_: vec4<f32>) -> VsOut {
    reg1_0_ = v0_;
    reg1_1_ = v1_;
    let _e4 = reg1_0_;
    let _e5 = reg1_1_;
    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = _e4;
    reg0_2_ = _e5;
    l1_();
    let _e16 = b[2];
    if (_e16.x != 0u) {
        l2_();
    }
    let _e20 = reg0_0_;
    let _e23 = driver[0];
    let _e26 = (_e23 * vec4(_e20.w));
    return VsOut((_e20 + vec4<f32>(_e26.x, _e26.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
