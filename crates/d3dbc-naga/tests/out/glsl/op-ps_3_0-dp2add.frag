#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 8) smooth in vec4 _vs2fs_location8;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    vec4 color0_2_ = _vs2fs_location8;
    PsOut _tmp_return = PsOut(vec4((dot(mix(texcoord0_0_, vec4(0.0), equal(texcoord1_1_, vec4(0.0))).xy, mix(texcoord1_1_, vec4(0.0), equal(texcoord0_0_, vec4(0.0))).xy) + vec4(0.5, 1.0, 2.0, 0.25).xxxx.x)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

