diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 32>;

@fragment 
fn main(@location(8) color0_0_: vec4<f32>, @location(0) texcoord0_1_: vec4<f32>, @location(1) texcoord1_2_: vec4<f32>) -> PsOut {
    var reg0_0_: vec4<f32>;
    var reg0_1_: vec4<f32>;
    var reg0_2_: vec4<f32>;
    var reg8_0_: vec4<f32>;

    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = texcoord0_1_;
    reg0_2_ = texcoord1_2_;
    if (texcoord0_1_.xxxx.x > vec4<f32>(0.5f, 1f, 2f, 0.25f).yyyy.x) {
        let _e21 = reg0_0_;
        let _e22 = reg0_1_;
        reg0_0_ = (_e21 + _e22);
    }
    let _e24 = reg0_1_;
    let _e26 = reg0_2_;
    if (_e24.yyyy.x <= _e26.xxxx.x) {
        let _e37 = reg0_0_;
        reg0_0_ = select(_e37, vec4<f32>(0.5f, 1f, 2f, 0.25f).wwww, vec4<bool>(true, false, false, false));
    }
    let _e40 = reg0_0_;
    return PsOut(_e40);
}
