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
    var count: i32;

    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    count = vec4<i32>(3i, 0i, 0i, 0i).x;
    loop {
        let _e19 = count;
        if (_e19 <= 0i) {
            break;
        }
        let _e22 = reg0_0_;
        let _e23 = reg0_1_;
        reg0_0_ = (_e22 + _e23);
        continuing {
            let _e26 = count;
            count = (_e26 - 1i);
        }
    }
    let _e29 = reg0_0_;
    return PsOut(_e29);
}
