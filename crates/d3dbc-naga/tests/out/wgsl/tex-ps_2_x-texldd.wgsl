diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>) -> PsOut {
    let _e1 = dpdxFine(texcoord0_0_);
    let _e2 = dpdyFine(texcoord0_0_);
    let _e8 = textureSampleGrad(t0_, s0_, texcoord0_0_.xy, _e1.xy, _e2.xy);
    return PsOut(_e8);
}
