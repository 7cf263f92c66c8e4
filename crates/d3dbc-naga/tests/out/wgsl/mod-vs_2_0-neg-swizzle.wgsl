struct VsOut {
    @builtin(position) position: vec4<f32>,
    @location(0) texcoord0_: vec4<f32>,
    @location(1) texcoord1_: vec4<f32>,
    @location(2) texcoord2_: vec4<f32>,
    @location(3) texcoord3_: vec4<f32>,
    @location(4) texcoord4_: vec4<f32>,
    @location(5) texcoord5_: vec4<f32>,
    @location(6) texcoord6_: vec4<f32>,
    @location(7) texcoord7_: vec4<f32>,
    @location(8) color0_: vec4<f32>,
    @location(9) color1_: vec4<f32>,
    @location(10) fog0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> c: array<vec4<f32>, 256>;
@group(0) @binding(6) 
var<uniform> driver: array<vec4<f32>, 30>;

@vertex 
fn main(@location(0) v0_: vec4<f32>, @location(1) v1_: vec4<f32>) -> VsOut {
    let _e10 = (-(v0_.yzwx) + vec4<f32>(0.5f, 1f, 2f, 0.25f).wzyx);
    let _e13 = driver[0];
    let _e16 = (_e13 * vec4(_e10.w));
    return VsOut((_e10 + vec4<f32>(_e16.x, _e16.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
