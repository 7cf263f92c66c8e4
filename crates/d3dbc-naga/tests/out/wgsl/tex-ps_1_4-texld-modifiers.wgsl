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

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(2) texcoord2_2_: vec4<f32>) -> PsOut {
    let _e9 = textureSample(t0_, s0_, (texcoord0_0_ / vec4(texcoord0_0_.z)).xy);
    let _e14 = clamp(_e9, vec4(-8f), vec4(8f));
    let _e15 = texcoord1_1_.xyww;
    let _e22 = textureSample(t1_, s1_, (_e15 / vec4(_e15.w)).xy);
    let _e27 = clamp(_e22, vec4(-8f), vec4(8f));
    let _e28 = texcoord2_2_.xyzz;
    return PsOut(saturate(clamp((select(_e14, vec4<f32>(), (_e27 == vec4<f32>())) * select(_e27, vec4<f32>(), (_e14 == vec4<f32>()))), vec4(-8f), vec4(8f))));
}
