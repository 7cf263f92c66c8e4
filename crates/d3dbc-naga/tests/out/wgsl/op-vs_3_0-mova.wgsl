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
    let _e10 = (select(vec4<i32>(), vec4<i32>(round(v0_.xxxx)), vec4<bool>(true, false, false, false)).x + 1i);
    let _e11 = bitcast<u32>(_e10);
    let _e18 = c[min(_e11, 255u)];
    let _e28 = select(select(vec4<f32>(), _e18, (_e11 < 256u)), vec4<f32>(0.5f, 1f, 2f, 0.25f), (_e10 == 0i));
    let _e31 = driver[0];
    let _e34 = (_e31 * vec4(_e28.w));
    return VsOut((_e28 + vec4<f32>(_e34.x, _e34.y, 0f, 0f)), v0_, vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4(1f));
}
