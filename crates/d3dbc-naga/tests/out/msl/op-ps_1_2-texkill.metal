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
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, metal::texture2d<float, metal::access::sample> t0_ [[user(fake0)]]
, metal::sampler s0_ [[user(fake0)]]
) {
    bool killed = {};
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    killed = false;
    metal::float4 _e7 = t0_.sample(s0_, texcoord0_0_.xy);
    metal::bool4 _e14 = texcoord1_1_ < metal::float4 {};
    if ((_e14.x || _e14.y) || _e14.z) {
        killed = true;
    }
    bool _e28 = killed;
    if (_e28) {
        metal::discard_fragment();
    }
    const auto _tmp = PsOut {metal::saturate(metal::clamp(metal::clamp(_e7, metal::float4(-8.0), metal::float4(8.0)), metal::float4(-8.0), metal::float4(8.0)))};
    return main_Output { _tmp.oC0_ };
}
