diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(2) texcoord2_2_: vec4<f32>) -> PsOut {
    var reg0_0_: vec4<f32>;
    var reg8_0_: vec4<f32>;
    var reg15_0_: i32;
    var count: i32;
    var saved_aL: i32;

    let _e5 = c[0];
    let _e10 = vec4<i32>(3i, 0i, 1i, 0i);
    let _e15 = reg15_0_;
    saved_aL = _e15;
    reg0_0_ = _e5;
    reg15_0_ = _e10.y;
    count = _e10.x;
    loop {
        let _e20 = count;
        if (_e20 <= 0i) {
            break;
        }
        let _e23 = reg0_0_;
        let _e24 = reg15_0_;
        let _e26 = (_e24 + 0i);
        reg0_0_ = (_e23 + select(select(select(vec4<f32>(), texcoord0_0_, (_e26 == 0i)), texcoord1_1_, (_e26 == 1i)), texcoord2_2_, (_e26 == 2i)));
        continuing {
            let _e39 = count;
            count = (_e39 - 1i);
            let _e42 = reg15_0_;
            reg15_0_ = (_e42 + _e10.z);
        }
    }
    let _e46 = reg0_0_;
    return PsOut(_e46);
}
