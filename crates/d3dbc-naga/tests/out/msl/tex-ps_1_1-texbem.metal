// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_9 {
    metal::float4 inner[30];
};
struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 texcoord0_0_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_1_ [[user(loc1), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, metal::texture2d<float, metal::access::sample> t0_ [[user(fake0)]]
, metal::sampler s0_ [[user(fake0)]]
, constant type_9& driver [[user(fake0)]]
, metal::texture2d<float, metal::access::sample> t1_ [[user(fake0)]]
, metal::sampler s1_ [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    metal::float4 _e5 = t0_.sample(s0_, texcoord0_0_.xy);
    metal::float4 _e10 = metal::clamp(_e5, metal::float4(-8.0), metal::float4(8.0));
    metal::float4 _e13 = driver.inner[5];
    metal::float4 _e56 = t1_.sample(s1_, metal::float4((texcoord1_1_.x + (((_e10.x == 0.0) ? 0.0 : _e13.x) * ((_e13.x == 0.0) ? 0.0 : _e10.x))) + (((_e10.y == 0.0) ? 0.0 : _e13.z) * ((_e13.z == 0.0) ? 0.0 : _e10.y)), (texcoord1_1_.y + (((_e10.x == 0.0) ? 0.0 : _e13.y) * ((_e13.y == 0.0) ? 0.0 : _e10.x))) + (((_e10.y == 0.0) ? 0.0 : _e13.w) * ((_e13.w == 0.0) ? 0.0 : _e10.y)), texcoord1_1_.z, texcoord1_1_.w).xy);
    const auto _tmp = PsOut {metal::saturate(metal::clamp(metal::clamp(_e56, metal::float4(-8.0), metal::float4(8.0)), metal::float4(-8.0), metal::float4(8.0)))};
    return main_Output { _tmp.oC0_ };
}
