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
    let _e4 = c[1];
    let _e15 = c[2];
    let _e26 = c[3];
    let _e47 = select(select(vec4<f32>(), vec4<f32>(dot(select(v0_, vec4<f32>(), (_e4 == vec4<f32>())).xyz, select(_e4, vec4<f32>(), (v0_ == vec4<f32>())).xyz), dot(select(v0_, vec4<f32>(), (_e15 == vec4<f32>())).xyz, select(_e15, vec4<f32>(), (v0_ == vec4<f32>())).xyz), dot(select(v0_, vec4<f32>(), (_e26 == vec4<f32>())).xyz, select(_e26, vec4<f32>(), (v0_ == vec4<f32>())).xyz), 0f), vec4<bool>(true, true, true, false)), vec4<f32>(0.5f, 1f, 2f, 0.25f).yyyy, vec4<bool>(false, false, false, true));
    let _e50 = driver[0];
    let _e53 = (_e50 * vec4(_e47.w));
    return VsOut((_e47 + vec4<f32>(_e53.x, _e53.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
