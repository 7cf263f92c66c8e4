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
    metal::float4 reg0_0_ = {};
    metal::float4 reg0_1_ = {};
    metal::float4 reg0_2_ = {};
    metal::float4 reg8_0_ = {};
    int reg15_0_ = {};
    int count = {};
    int saved_aL = {};
    metal::int4 _e12 = metal::int4(4, 0, 1, 0);
    int _e17 = reg15_0_;
    saved_aL = _e17;
    reg0_0_ = metal::float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    reg15_0_ = _e12.y;
    count = _e12.x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e31 = count;
            count = as_type<int>(as_type<uint>(_e31) - as_type<uint>(1));
            int _e34 = reg15_0_;
            reg15_0_ = as_type<int>(as_type<uint>(_e34) + as_type<uint>(_e12.z));
        }
        loop_init = false;
        int _e24 = count;
        if (_e24 <= 0) {
            break;
        }
        metal::float4 _e27 = reg0_0_;
        metal::float4 _e28 = reg0_1_;
        reg0_0_ = _e27 + _e28;
    }
    metal::float4 _e38 = reg0_0_;
    const auto _tmp = PsOut {_e38};
    return main_Output { _tmp.oC0_ };
}
