diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@group(0) @binding(16) 
var t0_: texture_2d<f32>;
@group(0) @binding(17) 
var s0_: sampler;
@group(0) @binding(6) 
var<uniform> driver: array<vec4<f32>, 30>;
@group(0) @binding(18) 
var t1_: texture_2d<f32>;
@group(0) @binding(19) 
var s1_: sampler;

@fragment 
fn main(@location(0) texcoord0_0_: vec4<f32>, @location(1) texcoord1_1_: vec4<f32>) -> PsOut {
    let _e5 = textureSample(t0_, s0_, texcoord0_0_.xy);
    let _e10 = clamp(_e5, vec4(-8f), vec4(8f));
    let _e13 = driver[5];
    let _e56 = textureSample(t1_, s1_, vec4<f32>(((texcoord1_1_.x + (select(_e13.x, 0f, (_e10.x == 0f)) * select(_e10.x, 0f, (_e13.x == 0f)))) + (select(_e13.z, 0f, (_e10.y == 0f)) * select(_e10.y, 0f, (_e13.z == 0f)))), ((texcoord1_1_.y + (select(_e13.y, 0f, (_e10.x == 0f)) * select(_e10.x, 0f, (_e13.y == 0f)))) + (select(_e13.w, 0f, (_e10.y == 0f)) * select(_e10.y, 0f, (_e13.w == 0f)))), texcoord1_1_.z, texcoord1_1_.w).xy);
    return PsOut(saturate(clamp(clamp(_e56, vec4(-8f), vec4(8f)), vec4(-8f), vec4(8f))));
}
