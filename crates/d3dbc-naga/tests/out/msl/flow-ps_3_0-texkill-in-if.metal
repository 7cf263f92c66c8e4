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
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, constant type_7& c [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    metal::float4 reg8_0_ = {};
    metal::float4 _e4 = c.inner[0];
    if (texcoord0_0_.xxxx.x < _e4.xxxx.x) {
        metal::bool4 _e10 = texcoord0_0_ < metal::float4 {};
        if (((_e10.x || _e10.y) || _e10.z) || _e10.w) {
            metal::discard_fragment();
        }
    }
    const auto _tmp = PsOut {texcoord0_0_};
    return main_Output { _tmp.oC0_ };
}
