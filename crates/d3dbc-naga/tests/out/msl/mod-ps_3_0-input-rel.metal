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
    metal::float4 texcoord2_2_ [[user(loc2), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
, constant type_7& c [[user(fake0)]]
) {
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    const auto texcoord2_2_ = varyings.texcoord2_2_;
    metal::float4 reg0_0_ = {};
    metal::float4 reg8_0_ = {};
    int reg15_0_ = {};
    int count = {};
    int saved_aL = {};
    metal::float4 _e5 = c.inner[0];
    metal::int4 _e10 = metal::int4(3, 0, 1, 0);
    int _e15 = reg15_0_;
    saved_aL = _e15;
    reg0_0_ = _e5;
    reg15_0_ = _e10.y;
    count = _e10.x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e39 = count;
            count = as_type<int>(as_type<uint>(_e39) - as_type<uint>(1));
            int _e42 = reg15_0_;
            reg15_0_ = as_type<int>(as_type<uint>(_e42) + as_type<uint>(_e10.z));
        }
        loop_init = false;
        int _e20 = count;
        if (_e20 <= 0) {
            break;
        }
        metal::float4 _e23 = reg0_0_;
        int _e24 = reg15_0_;
        int _e26 = as_type<int>(as_type<uint>(_e24) + as_type<uint>(0));
        reg0_0_ = _e23 + ((_e26 == 2) ? texcoord2_2_ : ((_e26 == 1) ? texcoord1_1_ : ((_e26 == 0) ? texcoord0_0_ : metal::float4 {})));
    }
    metal::float4 _e46 = reg0_0_;
    const auto _tmp = PsOut {_e46};
    return main_Output { _tmp.oC0_ };
}
