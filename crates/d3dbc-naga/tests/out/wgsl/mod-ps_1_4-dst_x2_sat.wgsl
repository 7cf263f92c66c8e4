diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(20) 
var t2_: texture_2d<f32>;
@group(0) @binding(21) 
var s2_: sampler;
@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 8>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(2) texcoord2_2_: vec4<f32>) -> PsOut {
    let _e14 = textureSample(t2_, s2_, texcoord1_1_.xy);
    let _e37 = select(select(vec4<f32>(), clamp(texcoord0_0_, vec4(-8f), vec4(8f)), vec4<bool>(true, true, true, false)), clamp(clamp(vec4<f32>(0.5f, 1f, 0.25f, 0f), vec4(-1f), vec4(1f)).yyyy, vec4(-8f), vec4(8f)), vec4<bool>(false, false, false, true));
    let _e47 = clamp(vec4<f32>(0.5f, 1f, 0.25f, 0f), vec4(-1f), vec4(1f));
    return PsOut(saturate(saturate(((select(_e37, vec4<f32>(), (_e47 == vec4<f32>())) * select(_e47, vec4<f32>(), (_e37 == vec4<f32>()))) * vec4(2f)))));
}
