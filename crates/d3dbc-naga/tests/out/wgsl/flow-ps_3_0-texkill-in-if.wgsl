diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

var<private> killed: bool;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>) -> PsOut {
    var reg8_0_: vec4<f32>;

    killed = false;
    let _e6 = c[0];
    if (texcoord0_0_.xxxx.x < _e6.xxxx.x) {
        let _e12 = (texcoord0_0_ < vec4<f32>());
        if (((_e12.x || _e12.y) || _e12.z) || _e12.w) {
            killed = true;
        }
    }
    let _e23 = killed;
    if _e23 {
        discard;
    }
    return PsOut(texcoord0_0_);
}
