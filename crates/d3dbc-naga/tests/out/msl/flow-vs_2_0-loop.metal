// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct type_7 {
    metal::float4 inner[256];
};
struct type_8 {
    metal::float4 inner[30];
};
struct VsOut {
    metal::float4 position;
    metal::float4 texcoord0_;
    metal::float4 texcoord1_;
    metal::float4 texcoord2_;
    metal::float4 texcoord3_;
    metal::float4 texcoord4_;
    metal::float4 texcoord5_;
    metal::float4 texcoord6_;
    metal::float4 texcoord7_;
    metal::float4 color0_;
    metal::float4 color1_;
    metal::float4 fog0_;
};

struct main_Input {
    metal::float4 v0_ [[attribute(0)]];
    metal::float4 v1_ [[attribute(1)]];
};
struct main_Output {
    metal::float4 position [[position]];
    metal::float4 texcoord0_ [[user(loc0), center_perspective]];
    metal::float4 texcoord1_ [[user(loc1), center_perspective]];
    metal::float4 texcoord2_ [[user(loc2), center_perspective]];
    metal::float4 texcoord3_ [[user(loc3), center_perspective]];
    metal::float4 texcoord4_ [[user(loc4), center_perspective]];
    metal::float4 texcoord5_ [[user(loc5), center_perspective]];
    metal::float4 texcoord6_ [[user(loc6), center_perspective]];
    metal::float4 texcoord7_ [[user(loc7), center_perspective]];
    metal::float4 color0_ [[user(loc8), center_perspective]];
    metal::float4 color1_ [[user(loc9), center_perspective]];
    metal::float4 fog0_ [[user(loc10), center_perspective]];
};
vertex main_Output main_(
  main_Input varyings [[stage_in]]
, constant type_8& driver [[user(fake0)]]
) {
    const auto v0_ = varyings.v0_;
    const auto v1_ = varyings.v1_;
    metal::float4 reg0_0_ = {};
    metal::float4 reg0_1_ = {};
    metal::float4 reg0_2_ = {};
    metal::float4 reg4_0_ = {};
    int reg15_0_ = {};
    int count = {};
    int saved_aL = {};
    metal::int4 _e11 = metal::int4(4, 0, 1, 0);
    int _e16 = reg15_0_;
    saved_aL = _e16;
    reg0_0_ = metal::float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    reg15_0_ = _e11.y;
    count = _e11.x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e30 = count;
            count = as_type<int>(as_type<uint>(_e30) - as_type<uint>(1));
            int _e33 = reg15_0_;
            reg15_0_ = as_type<int>(as_type<uint>(_e33) + as_type<uint>(_e11.z));
        }
        loop_init = false;
        int _e23 = count;
        if (_e23 <= 0) {
            break;
        }
        metal::float4 _e26 = reg0_0_;
        metal::float4 _e27 = reg0_1_;
        reg0_0_ = _e26 + _e27;
    }
    metal::float4 _e37 = reg0_0_;
    metal::float4 _e40 = driver.inner[0];
    metal::float4 _e43 = _e40 * metal::float4(_e37.w);
    const auto _tmp = VsOut {_e37 + metal::float4(_e43.x, _e43.y, 0.0, 0.0), metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4(1.0), metal::float4 {}, metal::float4 {}};
    return main_Output { _tmp.position, _tmp.texcoord0_, _tmp.texcoord1_, _tmp.texcoord2_, _tmp.texcoord3_, _tmp.texcoord4_, _tmp.texcoord5_, _tmp.texcoord6_, _tmp.texcoord7_, _tmp.color0_, _tmp.color1_, _tmp.fog0_ };
}
