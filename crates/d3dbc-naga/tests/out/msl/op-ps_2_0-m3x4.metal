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
, constant type_7& c [[user(fake0)]]
) {
    const auto color0_0_ = varyings.color0_0_;
    const auto texcoord0_1_ = varyings.texcoord0_1_;
    const auto texcoord1_2_ = varyings.texcoord1_2_;
    metal::float4 _e5 = c.inner[1];
    metal::float4 _e16 = c.inner[2];
    metal::float4 _e27 = c.inner[3];
    metal::float4 _e38 = c.inner[4];
    const auto _tmp = PsOut {metal::float4(metal::dot(metal::select(texcoord0_1_, metal::float4 {}, _e5 == metal::float4 {}).xyz, metal::select(_e5, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz), metal::dot(metal::select(texcoord0_1_, metal::float4 {}, _e16 == metal::float4 {}).xyz, metal::select(_e16, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz), metal::dot(metal::select(texcoord0_1_, metal::float4 {}, _e27 == metal::float4 {}).xyz, metal::select(_e27, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz), metal::dot(metal::select(texcoord0_1_, metal::float4 {}, _e38 == metal::float4 {}).xyz, metal::select(_e38, metal::float4 {}, texcoord0_1_ == metal::float4 {}).xyz))};
    return main_Output { _tmp.oC0_ };
}
