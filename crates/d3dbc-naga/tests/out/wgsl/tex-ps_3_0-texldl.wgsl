diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>) -> PsOut {
    let _e5 = textureSampleLevel(t0_, s0_, texcoord0_0_.xy, texcoord0_0_.w);
    return PsOut(_e5);
}
