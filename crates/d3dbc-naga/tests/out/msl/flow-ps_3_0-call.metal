// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_7 {
    metal::float4 inner[224];
};
struct type_8 {
    metal::uint4 inner[16];
};
struct PsOut {
    metal::float4 oC0_;
};

void l1_(
    thread metal::float4& reg0_0_,
    thread metal::float4& reg0_1_
) {
    metal::float4 _e1 = reg0_0_;
    metal::float4 _e3 = reg0_1_;
    reg0_0_ = _e1 + _e3;
}

void l2_(
    thread metal::float4& reg0_0_,
    thread metal::float4& reg0_1_
) {
    metal::float4 _e1 = reg0_0_;
    metal::float4 _e3 = reg0_1_;
    reg0_0_ = metal::select(_e1, metal::float4 {}, _e3 == metal::float4 {}) * metal::select(_e3, metal::float4 {}, _e1 == metal::float4 {});
}

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
, constant type_8& b [[user(fake0)]]
) {
    metal::float4 reg0_0_ = {};
    metal::float4 reg0_1_ = {};
    metal::float4 reg0_2_ = {};
    metal::float4 reg1_0_ = {};
    metal::float4 reg1_1_ = {};
    metal::float4 reg1_2_ = {};
    const auto texcoord0_0_ = varyings.texcoord0_0_;
    const auto texcoord1_1_ = varyings.texcoord1_1_;
    const auto color0_2_ = varyings.color0_2_;
    reg1_0_ = texcoord0_0_;
    reg1_1_ = texcoord1_1_;
    reg1_2_ = color0_2_;
    metal::float4 _e6 = reg1_0_;
    metal::float4 _e7 = reg1_1_;
    reg0_0_ = metal::float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    l1_(reg0_0_, reg0_1_);
    metal::uint4 _e18 = b.inner[2];
    if (_e18.x != 0u) {
        l2_(reg0_0_, reg0_1_);
    }
    metal::float4 _e22 = reg0_0_;
    const auto _tmp = PsOut {_e22};
    return main_Output { _tmp.oC0_ };
}
