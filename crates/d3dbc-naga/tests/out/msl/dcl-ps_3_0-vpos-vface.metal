// language: metal2.0
#include <metal_stdlib>
#include <simd/simd.h>

using metal::uint;

struct PsOut {
    metal::float4 oC0_;
};

struct main_Input {
};
struct main_Output {
    metal::float4 oC0_ [[color(0)]];
};
fragment main_Output main_(
  metal::float4 frag_coord [[position]]
, bool front_facing [[front_facing]]
) {
    const auto _tmp = PsOut {metal::select(metal::select(metal::float4 {}, frag_coord - metal::float4(0.5, 0.5, 0.0, 0.0), metal::bool4(true, true, false, false)), metal::float4(front_facing ? 1.0 : -1.0).xxxx, metal::bool4(false, false, true, true))};
    return main_Output { _tmp.oC0_ };
}
