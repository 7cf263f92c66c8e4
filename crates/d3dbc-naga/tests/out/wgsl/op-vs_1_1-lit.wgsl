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

@group(0) @binding(6) 
var<uniform> driver: array<vec4<f32>, 30>;

@vertex 
fn main(@location(0) v0_: vec4<f32>, @location(1) v1_: vec4<f32>) -> VsOut {
    let _e9 = clamp(v0_.w, -127.9961f, 127.9961f);
    let _e10 = (v0_.x > 0f);
    let _e14 = log2(v0_.y);
    let _e23 = vec4<f32>(1f, select(0f, v0_.x, _e10), select(0f, exp2((select(_e9, 0f, (_e14 == 0f)) * select(_e14, 0f, (_e9 == 0f)))), (_e10 && (v0_.y > 0f))), 1f);
    let _e26 = driver[0];
    let _e29 = (_e26 * vec4(_e23.w));
    return VsOut((_e23 + vec4<f32>(_e29.x, _e29.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
