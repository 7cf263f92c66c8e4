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
    bool killed = {};
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    metal::float4 reg8_0_ = {};
    killed = false;
    metal::float4 _e6 = c.inner[0];
    if (texcoord0_0_.xxxx.x < _e6.xxxx.x) {
        metal::bool4 _e12 = texcoord0_0_ < metal::float4 {};
        if (((_e12.x || _e12.y) || _e12.z) || _e12.w) {
            killed = true;
        }
    }
    bool _e23 = killed;
    if (_e23) {
        metal::discard_fragment();
    }
    const auto _tmp = PsOut {texcoord0_0_};
    return main_Output { _tmp.oC0_ };
}
