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
    metal::bool4 _e2 = v0_ > v1_;
    metal::float4 _e5 = metal::select(metal::float4 {}, v0_, _e2);
    metal::float4 _e16 = metal::select(_e5, metal::select(_e5, metal::float4(0.5, 1.0, 2.0, 0.25).yyyy, metal::bool4(true, false, false, false)), !(_e2.xxxx));
    metal::float4 _e19 = driver.inner[0];
    metal::float4 _e22 = _e19 * metal::float4(_e16.w);
    const auto _tmp = VsOut {_e16 + metal::float4(_e22.x, _e22.y, 0.0, 0.0), metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4(1.0), metal::float4 {}, metal::float4 {}};
    return main_Output { _tmp.position, _tmp.texcoord0_, _tmp.texcoord1_, _tmp.texcoord2_, _tmp.texcoord3_, _tmp.texcoord4_, _tmp.texcoord5_, _tmp.texcoord6_, _tmp.texcoord7_, _tmp.color0_, _tmp.color1_, _tmp.fog0_ };
}
