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
    let _e2 = v0_.xxxx;
    let _e16 = (select(vec4<i32>(), vec4<i32>((floor((abs(_e2) + vec4(0.5f))) * sign(_e2))), vec4<bool>(true, false, false, false)).x + 1i);
    let _e17 = bitcast<u32>(_e16);
    let _e24 = c[min(_e17, 255u)];
    let _e34 = select(select(vec4<f32>(), _e24, (_e17 < 256u)), vec4<f32>(0.5f, 1f, 2f, 0.25f), (_e16 == 0i));
    let _e37 = driver[0];
    let _e40 = (_e37 * vec4(_e34.w));
    return VsOut((_e34 + vec4<f32>(_e40.x, _e40.y, 0f, 0f)), v0_, vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4(1f));
}
