// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_7 {
    metal::float4 inner[32];
};
struct PsOut {
    metal::float4 oC0_;
};

void l1_(
) {
}

struct main_Input {
    metal::float4 color0_0_ [[user(loc8), center_perspective]];
    metal::float4 texcoord0_1_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_2_ [[user(loc1), center_perspective]];
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  main_Input varyings [[stage_in]]
) {
    metal::float4 reg0_0_ = {};
    metal::float4 reg0_1_ = {};
    metal::float4 reg0_2_ = {};
    metal::float4 reg1_0_ = {};
    metal::float4 reg3_0_ = {};
    metal::float4 reg3_1_ = {};
    metal::bool4 reg19_0_ = {};
    const auto color0_0_ = varyings.color0_0_;
    const auto texcoord0_1_ = varyings.texcoord0_1_;
    const auto texcoord1_2_ = varyings.texcoord1_2_;
    int count = {};
    reg1_0_ = color0_0_;
    reg3_0_ = texcoord0_1_;
    reg3_1_ = texcoord1_2_;
    metal::float4 _e6 = reg3_0_;
    metal::float4 _e7 = reg3_1_;
    metal::float4 _e12 = metal::float4(0.5, 1.0, 2.0, 0.25);
    metal::bool4 _e13 = _e6 != _e7;
    metal::float4 _e17 = metal::select(_e12, _e12 + _e6, _e13);
    metal::float4 _e18 = _e17.yyyy;
    metal::float4 _e19 = _e7.yyyy;
    reg0_0_ = metal::select(_e17, metal::select(_e17, metal::select(_e18, metal::float4 {}, _e19 == metal::float4 {}) * metal::select(_e19, metal::float4 {}, _e18 == metal::float4 {}), metal::bool4(false, true, false, false)), !(_e13.yyyy));
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    reg19_0_ = _e13;
    if (_e13.x) {
        metal::float4 _e41 = reg0_0_;
        reg0_0_ = metal::select(_e41, metal::float4(0.5, 1.0, 2.0, 0.25).xxxx, metal::bool4(false, false, true, false));
    }
    metal::bool4 _e44 = reg19_0_;
    if (!(_e44.z)) {
        l1_();
    }
    count = metal::int4(2, 0, 0, 0).x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e61 = count;
            count = as_type<int>(as_type<uint>(_e61) - as_type<uint>(1));
        }
        loop_init = false;
        int _e55 = count;
        if (_e55 <= 0) {
            break;
        }
        metal::bool4 _e58 = reg19_0_;
        if (_e58.w) {
            break;
        }
    }
    metal::float4 _e64 = reg0_0_;
    const auto _tmp = PsOut {_e64};
    return main_Output { _tmp.oC0_ };
}
