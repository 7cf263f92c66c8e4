// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_9 {
    metal::float4 inner[8];
};
struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 texcoord0_0_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_1_ [[user(loc1), center_perspective]];
    metal::float4 texcoord2_2_ [[user(loc2), center_perspective]];
    metal::float4 texcoord3_3_ [[user(loc3), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, metal::texture2d<float, metal::access::sample> t0_ [[user(fake0)]]
, metal::sampler s0_ [[user(fake0)]]
, metal::texture2d<float, metal::access::sample> t3_ [[user(fake0)]]
, metal::sampler s3_ [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    const auto texcoord2_2_ = varyings.texcoord2_2_;
    const auto texcoord3_3_ = varyings.texcoord3_3_;
    metal::float4 _e7 = t0_.sample(s0_, texcoord0_0_.xy);
    metal::float4 _e12 = metal::clamp(_e7, metal::float4(-8.0), metal::float4(8.0));
    metal::float4 _e39 = metal::float4(metal::dot(metal::select(texcoord1_1_, metal::float4 {}, _e12 == metal::float4 {}).xyz, metal::select(_e12, metal::float4 {}, texcoord1_1_ == metal::float4 {}).xyz), metal::dot(metal::select(texcoord2_2_, metal::float4 {}, _e12 == metal::float4 {}).xyz, metal::select(_e12, metal::float4 {}, texcoord2_2_ == metal::float4 {}).xyz), metal::dot(metal::select(texcoord3_3_, metal::float4 {}, _e12 == metal::float4 {}).xyz, metal::select(_e12, metal::float4 {}, texcoord3_3_ == metal::float4 {}).xyz), 0.0);
    metal::float4 _e49 = metal::clamp(metal::float4(0.0, 0.0, 1.0, 0.0), metal::float4(-1.0), metal::float4(1.0));
    float _e65 = metal::dot(metal::select(_e39, metal::float4 {}, _e39 == metal::float4 {}).xyz, metal::select(_e39, metal::float4 {}, _e39 == metal::float4 {}).xyz);
    metal::float4 _e69 = metal::float4(2.0 * (metal::dot(metal::select(_e39, metal::float4 {}, _e49 == metal::float4 {}).xyz, metal::select(_e49, metal::float4 {}, _e39 == metal::float4 {}).xyz) / _e65));
    metal::float4 _e83 = t3_.sample(s3_, ((_e65 == 0.0) ? -(_e49) : ((metal::select(_e39, metal::float4 {}, _e69 == metal::float4 {}) * metal::select(_e69, metal::float4 {}, _e39 == metal::float4 {})) - _e49)).xy);
    const auto _tmp = PsOut {metal::saturate(metal::clamp(metal::clamp(_e83, metal::float4(-8.0), metal::float4(8.0)), metal::float4(-8.0), metal::float4(8.0)))};
    return main_Output { _tmp.oC0_ };
}
