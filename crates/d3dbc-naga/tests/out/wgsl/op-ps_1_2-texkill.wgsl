diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

var<private> killed: bool;
@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>) -> PsOut {
    killed = false;
    let _e7 = textureSample(t0_, s0_, texcoord0_0_.xy);
    let _e14 = (texcoord1_1_ < vec4<f32>());
    if ((_e14.x || _e14.y) || _e14.z) {
        killed = true;
    }
    let _e28 = killed;
    if _e28 {
        discard;
    }
    return PsOut(saturate(clamp(clamp(_e7, vec4(-8f), vec4(8f)), vec4(-8f), vec4(8f))));
}
