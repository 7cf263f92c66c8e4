// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
    metal::float4 texcoord0_0_ [[user(loc0), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, metal::texture3d<float, metal::access::sample> t3_ [[user(fake0)]]
, metal::sampler s3_ [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    metal::float4 _e4 = t3_.sample(s3_, texcoord0_0_.xyz);
    const auto _tmp = PsOut {_e4};
    return main_Output { _tmp.oC0_ };
}
