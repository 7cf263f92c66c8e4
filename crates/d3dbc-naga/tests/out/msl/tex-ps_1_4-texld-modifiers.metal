// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 texcoord0_0_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_1_ [[user(loc1), center_perspective]];
    metal::float4 texcoord2_2_ [[user(loc2), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, metal::texture2d<float, metal::access::sample> t0_ [[user(fake0)]]
, metal::sampler s0_ [[user(fake0)]]
, metal::texture2d<float, metal::access::sample> t1_ [[user(fake0)]]
, metal::sampler s1_ [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    const auto texcoord2_2_ = varyings.texcoord2_2_;
    metal::float4 _e9 = t0_.sample(s0_, (texcoord0_0_ / metal::float4(texcoord0_0_.z)).xy);
    metal::float4 _e14 = metal::clamp(_e9, metal::float4(-8.0), metal::float4(8.0));
    metal::float4 _e15 = texcoord1_1_.xyww;
    metal::float4 _e22 = t1_.sample(s1_, (_e15 / metal::float4(_e15.w)).xy);
    metal::float4 _e27 = metal::clamp(_e22, metal::float4(-8.0), metal::float4(8.0));
    metal::float4 _e28 = texcoord2_2_.xyzz;
    const auto _tmp = PsOut {metal::saturate(metal::clamp(metal::select(_e14, metal::float4 {}, _e27 == metal::float4 {}) * metal::select(_e27, metal::float4 {}, _e14 == metal::float4 {}), metal::float4(-8.0), metal::float4(8.0)))};
    return main_Output { _tmp.oC0_ };
}
