diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(3) 
var<uniform> c: array<vec4<f32>, 32>;

@fragment 
fn main(@location(8) color0_0_: vec4<f32>, @location(0) texcoord0_1_: vec4<f32>, @location(1) texcoord1_2_: vec4<f32>) -> PsOut {
    let _e5 = c[1];
    let _e16 = c[2];
    let _e27 = c[3];
    let _e38 = c[4];
    return PsOut(vec4<f32>(dot(select(texcoord0_1_, vec4<f32>(), (_e5 == vec4<f32>())).xyz, select(_e5, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz), dot(select(texcoord0_1_, vec4<f32>(), (_e16 == vec4<f32>())).xyz, select(_e16, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz), dot(select(texcoord0_1_, vec4<f32>(), (_e27 == vec4<f32>())).xyz, select(_e27, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz), dot(select(texcoord0_1_, vec4<f32>(), (_e38 == vec4<f32>())).xyz, select(_e38, vec4<f32>(), (texcoord0_1_ == vec4<f32>())).xyz)));
}
