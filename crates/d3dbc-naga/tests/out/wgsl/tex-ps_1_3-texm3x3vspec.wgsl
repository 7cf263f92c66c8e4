diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;
@group(0) @binding(22) 
var t3_: texture_2d<f32>;
@group(0) @binding(23) 
var s3_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(2) texcoord2_2_: vec4<f32>, @location(3) texcoord3_3_: vec4<f32>) -> PsOut {
    let _e7 = textureSample(t0_, s0_, texcoord0_0_.xy);
    let _e12 = clamp(_e7, vec4(-8f), vec4(8f));
    let _e39 = vec4<f32>(dot(select(texcoord1_1_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord1_1_ == vec4<f32>())).xyz), dot(select(texcoord2_2_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord2_2_ == vec4<f32>())).xyz), dot(select(texcoord3_3_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord3_3_ == vec4<f32>())).xyz), 0f);
    let _e43 = vec4<f32>(texcoord1_1_.w, texcoord2_2_.w, texcoord3_3_.w, 0f);
    let _e59 = dot(select(_e39, vec4<f32>(), (_e39 == vec4<f32>())).xyz, select(_e39, vec4<f32>(), (_e39 == vec4<f32>())).xyz);
    let _e63 = vec4((2f * (dot(select(_e39, vec4<f32>(), (_e43 == vec4<f32>())).xyz, select(_e43, vec4<f32>(), (_e39 == vec4<f32>())).xyz) / _e59)));
    let _e77 = textureSample(t3_, s3_, select(((select(_e39, vec4<f32>(), (_e63 == vec4<f32>())) * select(_e63, vec4<f32>(), (_e39 == vec4<f32>()))) - _e43), -(_e43), (_e59 == 0f)).xy);
    return PsOut(saturate(clamp(clamp(_e77, vec4(-8f), vec4(8f)), vec4(-8f), vec4(8f))));
}
