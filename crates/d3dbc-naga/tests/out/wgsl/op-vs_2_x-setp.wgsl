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
    let _e2 = (v0_ > v1_);
    let _e5 = select(vec4<f32>(), v0_, _e2);
    let _e16 = select(_e5, select(_e5, vec4<f32>(0.5f, 1f, 2f, 0.25f).yyyy, vec4<bool>(true, false, false, false)), !(_e2.xxxx));
    let _e19 = driver[0];
    let _e22 = (_e19 * vec4(_e16.w));
    return VsOut((_e16 + vec4<f32>(_e22.x, _e22.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
