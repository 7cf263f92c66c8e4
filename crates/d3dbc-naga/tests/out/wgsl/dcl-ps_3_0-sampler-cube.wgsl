diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(22) 
var t3_: texture_cube<f32>;
@group(0) @binding(23) 
var s3_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>) -> PsOut {
    let _e4 = textureSample(t3_, s3_, texcoord0_0_.xyz);
    return PsOut(_e4);
}
