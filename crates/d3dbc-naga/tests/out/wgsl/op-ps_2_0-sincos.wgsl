diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 32>;

@fragment 
fn main(@location(8) color0_0_: vec4<f32>, @location(0) texcoord0_1_: vec4<f32>, @location(1) texcoord1_2_: vec4<f32>) -> PsOut {
    return PsOut(select(select(vec4<f32>(), vec4<f32>(cos(texcoord0_1_.xxxx.w), sin(texcoord0_1_.xxxx.w), 0f, 0f), vec4<bool>(true, true, false, false)), vec4<f32>(0.5f, 1f, 2f, 0.25f).yyyy, vec4<bool>(false, false, true, true)));
}
