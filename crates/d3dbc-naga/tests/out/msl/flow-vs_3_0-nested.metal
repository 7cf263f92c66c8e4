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
    metal::float4 reg6_0_ = {};
    metal::float4 reg6_1_ = {};
    int count = {};
    int count_1 = {};
    reg0_0_ = metal::float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    count = metal::int4(2, 0, 0, 0).x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e52 = count;
            count = as_type<int>(as_type<uint>(_e52) - as_type<uint>(1));
        }
        loop_init = false;
        int _e18 = count;
        if (_e18 <= 0) {
            break;
        }
        if (true) {
            count_1 = metal::int4(2, 0, 0, 0).x;
            bool loop_init_1 = true;
            while(true) {
                if (!loop_init_1) {
                    int _e48 = count_1;
                    count_1 = as_type<int>(as_type<uint>(_e48) - as_type<uint>(1));
                }
                loop_init_1 = false;
                int _e30 = count_1;
                if (_e30 <= 0) {
                    break;
                }
                metal::float4 _e33 = reg0_0_;
                if (_e33.xxxx.x == metal::float4(0.5, 1.0, 2.0, 0.25).xxxx.x) {
                    metal::float4 _e44 = reg0_0_;
                    metal::float4 _e45 = reg0_1_;
                    reg0_0_ = _e44 + _e45;
                }
            }
        }
    }
    metal::float4 _e55 = reg0_0_;
    metal::float4 _e56 = reg0_1_;
    metal::float4 _e59 = driver.inner[0];
    metal::float4 _e62 = _e59 * metal::float4(_e55.w);
    const auto _tmp = VsOut {_e55 + metal::float4(_e62.x, _e62.y, 0.0, 0.0), _e56, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4(1.0), metal::float4 {}, metal::float4(1.0)};
    return main_Output { _tmp.position, _tmp.texcoord0_, _tmp.texcoord1_, _tmp.texcoord2_, _tmp.texcoord3_, _tmp.texcoord4_, _tmp.texcoord5_, _tmp.texcoord6_, _tmp.texcoord7_, _tmp.color0_, _tmp.color1_, _tmp.fog0_ };
}
