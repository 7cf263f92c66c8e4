diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 8>;
@group(0) @binding(22) 
var t3_: texture_2d<f32>;
@group(0) @binding(23) 
var s3_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(2) texcoord2_2_: vec4<f32>, @location(3) texcoord3_3_: vec4<f32>) -> PsOut {
    let _e7 = textureSample(t0_, s0_, texcoord0_0_.xy);
    let _e12 = clamp(_e7, vec4(-8f), vec4(8f));
    let _e39 = vec4<f32>(dot(select(texcoord1_1_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord1_1_ == vec4<f32>())).xyz), dot(select(texcoord2_2_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord2_2_ == vec4<f32>())).xyz), dot(select(texcoord3_3_, vec4<f32>(), (_e12 == vec4<f32>())).xyz, select(_e12, vec4<f32>(), (texcoord3_3_ == vec4<f32>())).xyz), 0f);
    let _e49 = clamp(vec4<f32>(0f, 0f, 1f, 0f), vec4(-1f), vec4(1f));
    let _e65 = dot(select(_e39, vec4<f32>(), (_e39 == vec4<f32>())).xyz, select(_e39, vec4<f32>(), (_e39 == vec4<f32>())).xyz);
    let _e69 = vec4((2f * (dot(select(_e39, vec4<f32>(), (_e49 == vec4<f32>())).xyz, select(_e49, vec4<f32>(), (_e39 == vec4<f32>())).xyz) / _e65)));
    let _e83 = textureSample(t3_, s3_, select(((select(_e39, vec4<f32>(), (_e69 == vec4<f32>())) * select(_e69, vec4<f32>(), (_e39 == vec4<f32>()))) - _e49), -(_e49), (_e65 == 0f)).xy);
    return PsOut(saturate(clamp(clamp(_e83, vec4(-8f), vec4(8f)), vec4(-8f), vec4(8f))));
}
