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
    var reg6_0_: vec4<f32>;
    var reg6_1_: vec4<f32>;
    var count: i32;
    var count_1: i32;

    reg0_0_ = vec4<f32>(0.5f, 1f, 2f, 0.25f);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    count = vec4<i32>(2i, 0i, 0i, 0i).x;
    loop {
        let _e18 = count;
        if (_e18 <= 0i) {
            break;
        }
        if true {
            count_1 = vec4<i32>(2i, 0i, 0i, 0i).x;
            loop {
                let _e30 = count_1;
                if (_e30 <= 0i) {
                    break;
                }
                let _e33 = reg0_0_;
                if (_e33.xxxx.x == vec4<f32>(0.5f, 1f, 2f, 0.25f).xxxx.x) {
                    let _e44 = reg0_0_;
                    let _e45 = reg0_1_;
                    reg0_0_ = (_e44 + _e45);
                }
                continuing {
                    let _e48 = count_1;
                    count_1 = (_e48 - 1i);
                }
            }
        }
        continuing {
            let _e52 = count;
            count = (_e52 - 1i);
        }
    }
    let _e55 = reg0_0_;
    let _e56 = reg0_1_;
    let _e59 = driver[0];
    let _e62 = (_e59 * vec4(_e55.w));
    return VsOut((_e55 + vec4<f32>(_e62.x, _e62.y, 0f, 0f)), _e56, vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4<f32>(), vec4(1f), vec4<f32>(), vec4(1f));
}
