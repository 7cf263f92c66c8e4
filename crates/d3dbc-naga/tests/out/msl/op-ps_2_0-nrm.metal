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
    float _e10 = metal::dot(metal::select(texcoord0_1_, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz, metal::select(texcoord0_1_, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz);
    metal::float4 _e17 = metal::float4((_e10 == 0.0) ? as_type<float>(2139095039u) : metal::rsqrt(_e10));
    const auto _tmp = PsOut {metal::select(metal::select(metal::float4 {}, metal::select(texcoord0_1_, metal::float4 {}, _e17 == metal::float4 {}) * metal::select(_e17, metal::float4 {}, texcoord0_1_ == metal::float4 {}), metal::bool4(true, true, true, false)), metal::float4(0.5, 1.0, 2.0, 0.25).yyyy, metal::bool4(false, false, false, true))};
    return main_Output { _tmp.oC0_ };
}
