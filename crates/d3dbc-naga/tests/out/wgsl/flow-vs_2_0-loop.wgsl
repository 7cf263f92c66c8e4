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
    var reg0_0_: vec4<f32>;
    var reg0_1_: vec4<f32>;
    var reg0_2_: vec4<f32>;
    var reg4_0_: vec4<f32>;
    var reg15_0_: i32;
    var count: i32;
    var saved_aL: i32;

    let _e11 = vec4<i32>(4i, 0i, 1i, 0i);
    let _e16 = reg15_0_;
    saved_aL = _e16;
    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    reg15_0_ = _e11.y;
    count = _e11.x;
    loop {
        let _e23 = count;
        if (_e23 <= 0i) {
            break;
        }
        let _e26 = reg0_0_;
        let _e27 = reg0_1_;
        reg0_0_ = (_e26 + _e27);
        continuing {
            let _e30 = count;
            count = (_e30 - 1i);
            let _e33 = reg15_0_;
            reg15_0_ = (_e33 + _e11.z);
        }
    }
    let _e37 = reg0_0_;
    let _e40 = driver[0];
    let _e43 = (_e40 * vec4(_e37.w));
    return VsOut((_e37 + vec4<f32>(_e43.x, _e43.y, 0f, 0f)), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4<f32>());
}
