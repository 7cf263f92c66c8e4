// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_7 {
    metal::float4 inner[224];
};
struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 texcoord0_0_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_1_ [[user(loc1), center_perspective]];
    metal::float4 color0_2_ [[user(loc8), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    const auto color0_2_ = varyings.color0_2_;
    const auto _tmp = PsOut {metal::float4(metal::dot(metal::select(texcoord0_0_, metal::float4 {}, texcoord1_1_ == metal::float4 {}).xy, metal::select(texcoord1_1_, metal::float4 {}, texcoord0_0_ == metal::float4 {}).xy) + metal::float4(0.5, 1.0, 2.0, 0.25).xxxx.x)};
    return main_Output { _tmp.oC0_ };
}
