diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>) -> PsOut {
    var reg8_0_: vec4<f32>;

    let _e4 = c[0];
    if (texcoord0_0_.xxxx.x < _e4.xxxx.x) {
        let _e10 = (texcoord0_0_ < vec4<f32>());
        if (((_e10.x || _e10.y) || _e10.z) || _e10.w) {
            discard;
        }
    }
    return PsOut(texcoord0_0_);
}
