// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_7 {
    metal::float4 inner[32];
};
struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 color0_0_ [[user(loc8), center_perspective]];
    metal::float4 texcoord0_1_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_2_ [[user(loc1), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
) {
    const auto color0_0_ = varyings.color0_0_;
    const auto texcoord0_1_ = varyings.texcoord0_1_;
    const auto texcoord1_2_ = varyings.texcoord1_2_;
    metal::float4 reg0_0_ = {};
    metal::float4 reg0_1_ = {};
    metal::float4 reg0_2_ = {};
    metal::float4 reg8_0_ = {};
    reg0_0_ = metal::float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_1_;
    reg0_2_ = texcoord1_2_;
    if (texcoord0_1_.xxxx.x > metal::float4(0.5, 1.0, 2.0, 0.25).yyyy.x) {
        metal::float4 _e21 = reg0_0_;
        metal::float4 _e22 = reg0_1_;
        reg0_0_ = _e21 + _e22;
    }
    metal::float4 _e24 = reg0_1_;
    metal::float4 _e26 = reg0_2_;
    if (_e24.yyyy.x <= _e26.xxxx.x) {
        metal::float4 _e37 = reg0_0_;
        reg0_0_ = metal::select(_e37, metal::float4(0.5, 1.0, 2.0, 0.25).wwww, metal::bool4(true, false, false, false));
    }
    metal::float4 _e40 = reg0_0_;
    const auto _tmp = PsOut {_e40};
    return main_Output { _tmp.oC0_ };
}
