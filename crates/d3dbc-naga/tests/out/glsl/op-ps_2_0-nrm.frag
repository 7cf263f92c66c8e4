#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(location = 8) smooth in vec4 _vs2fs_location8;
layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 color0_0_ = _vs2fs_location8;
    vec4 texcoord0_1_ = _vs2fs_location0;
    vec4 texcoord1_2_ = _vs2fs_location1;
    float _e10 = dot(mix(texcoord0_1_, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz, mix(texcoord0_1_, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz);
    vec4 _e17 = vec4(((_e10 == 0.0) ? uintBitsToFloat(2139095039u) : inversesqrt(_e10)));
    PsOut _tmp_return = PsOut(mix(mix(vec4(0.0), (mix(texcoord0_1_, vec4(0.0), equal(_e17, vec4(0.0))) * mix(_e17, vec4(0.0), equal(texcoord0_1_, vec4(0.0)))), bvec4(true, true, true, false)), vec4(0.5, 1.0, 2.0, 0.25).yyyy, bvec4(false, false, false, true)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

