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
    vec4 reg0_0_ = vec4(0.0);
    vec4 reg0_1_ = vec4(0.0);
    vec4 reg0_2_ = vec4(0.0);
    vec4 reg8_0_ = vec4(0.0);
    reg0_0_ = vec4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_1_;
    reg0_2_ = texcoord1_2_;
    if ((texcoord0_1_.xxxx.x > vec4(0.5, 1.0, 2.0, 0.25).yyyy.x)) {
        vec4 _e21 = reg0_0_;
        vec4 _e22 = reg0_1_;
        reg0_0_ = (_e21 + _e22);
    }
    vec4 _e24 = reg0_1_;
    vec4 _e26 = reg0_2_;
    if ((_e24.yyyy.x <= _e26.xxxx.x)) {
        vec4 _e37 = reg0_0_;
        reg0_0_ = mix(_e37, vec4(0.5, 1.0, 2.0, 0.25).wwww, bvec4(true, false, false, false));
    }
    vec4 _e40 = reg0_0_;
    PsOut _tmp_return = PsOut(_e40);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

