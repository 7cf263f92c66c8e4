diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 224>;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>, @location(8) color0_2_: vec4<f32>) -> PsOut {
    return PsOut(vec4((dot(select(texcoord0_0_, vec4<f32>(), (texcoord1_1_ == vec4<f32>())).xy, select(texcoord1_1_, vec4<f32>(), (texcoord0_0_ == vec4<f32>())).xy) + vec4<f32>(0.5f, 1f, 2f, 0.25f).xxxx.x)));
}
