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
    PsOut _tmp_return = PsOut(mix(mix(vec4(0.0), vec4(cos(texcoord0_1_.xxxx.w), sin(texcoord0_1_.xxxx.w), 0.0, 0.0), bvec4(true, true, false, false)), vec4(0.5, 1.0, 2.0, 0.25).yyyy, bvec4(false, false, true, true)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

