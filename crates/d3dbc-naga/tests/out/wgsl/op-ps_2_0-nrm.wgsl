diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 32>;

@fragment 
fn main(@location(8) color0_0_: vec4<f32>, @location(0) texcoord0_1_: vec4<f32>, @location(1) texcoord1_2_: vec4<f32>) -> PsOut {
    let _e10 = dot(select(texcoord0_1_, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz, select(texcoord0_1_, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz);
    let _e17 = vec4(select(inverseSqrt(_e10), bitcast<f32>(2139095039u), (_e10 == 0f)));
    return PsOut(select(select(vec4<f32>(), (select(texcoord0_1_, vec4<f32>(), (_e17 == vec4<f32>())) * select(_e17, vec4<f32>(), (texcoord0_1_ == vec4<f32>()))), vec4<bool>(true, true, true, false)), vec4<f32>(0.5f, 1f, 2f, 0.25f).yyyy, vec4<bool>(false, false, false, true)));
}
