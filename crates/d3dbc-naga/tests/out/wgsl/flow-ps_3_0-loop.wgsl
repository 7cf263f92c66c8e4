diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(8) color0_2_: vec4<f32>) -> PsOut {
    var reg0_0_: vec4<f32>;
    var reg0_1_: vec4<f32>;
    var reg0_2_: vec4<f32>;
    var reg8_0_: vec4<f32>;
    var reg15_0_: i32;
    var count: i32;
    var saved_aL: i32;

    let _e12 = vec4<i32>(4i, 0i, 1i, 0i);
    let _e17 = reg15_0_;
    saved_aL = _e17;
    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    reg15_0_ = _e12.y;
    count = _e12.x;
    loop {
        let _e24 = count;
        if (_e24 <= 0i) {
            break;
        }
        let _e27 = reg0_0_;
        let _e28 = reg0_1_;
        reg0_0_ = (_e27 + _e28);
        continuing {
            let _e31 = count;
            count = (_e31 - 1i);
            let _e34 = reg15_0_;
            reg15_0_ = (_e34 + _e12.z);
        }
    }
    let _e38 = reg0_0_;
    return PsOut(_e38);
}
