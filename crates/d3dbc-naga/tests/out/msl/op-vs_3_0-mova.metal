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
metal::int4 naga_f2i32(metal::float4 value) {
    return static_cast<metal::int4>(metal::clamp(value, -2147483600.0, 2147483500.0));
}


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
, constant type_7& c [[user(fake0)]]
, constant type_8& driver [[user(fake0)]]
) {
    const auto v0_ = varyings.v0_;
    const auto v1_ = varyings.v1_;
    int _e10 = as_type<int>(as_type<uint>(metal::select(metal::int4 {}, naga_f2i32(metal::rint(v0_.xxxx)), metal::bool4(true, false, false, false)).x) + as_type<uint>(1));
    uint _e11 = as_type<uint>(_e10);
    metal::float4 _e18 = c.inner[metal::min(_e11, 255u)];
    metal::float4 _e28 = (_e10 == 0) ? metal::float4(0.5, 1.0, 2.0, 0.25) : ((_e11 < 256u) ? _e18 : metal::float4 {});
    metal::float4 _e31 = driver.inner[0];
    metal::float4 _e34 = _e31 * metal::float4(_e28.w);
    const auto _tmp = VsOut {_e28 + metal::float4(_e34.x, _e34.y, 0.0, 0.0), v0_, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4 {}, metal::float4(1.0), metal::float4 {}, metal::float4(1.0)};
    return main_Output { _tmp.position, _tmp.texcoord0_, _tmp.texcoord1_, _tmp.texcoord2_, _tmp.texcoord3_, _tmp.texcoord4_, _tmp.texcoord5_, _tmp.texcoord6_, _tmp.texcoord7_, _tmp.color0_, _tmp.color1_, _tmp.fog0_ };
}
