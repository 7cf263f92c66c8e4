diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;
@group(0) @binding(18) 
var t1_: texture_2d<f32>;
@group(0) @binding(19) 
var s1_: sampler;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 8>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>) -> PsOut {
    let _e5 = textureSample(t0_, s0_, texcoord0_0_.xy);
    let _e14 = textureSample(t1_, s1_, texcoord1_1_.xy);
    return PsOut(saturate(clamp((-((clamp(clamp(_e5, vec4(-8f), vec4(8f)), vec4(-8f), vec4(8f)) - vec4(0.5f))) + clamp(vec4<f32>(0.5f, 1f, 0.25f, 0f), vec4(-1f), vec4(1f))), vec4(-8f), vec4(8f))));
}
