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
    vec4 reg0_0_ = vec4(0.0);
    vec4 reg0_1_ = vec4(0.0);
    vec4 reg0_2_ = vec4(0.0);
    vec4 reg8_0_ = vec4(0.0);
    int count = 0;
    reg0_0_ = vec4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    count = ivec4(3, 0, 0, 0).x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e26 = count;
            count = (_e26 - 1);
        }
        loop_init = false;
        int _e19 = count;
        if ((_e19 <= 0)) {
            break;
        }
        vec4 _e22 = reg0_0_;
        vec4 _e23 = reg0_1_;
        reg0_0_ = (_e22 + _e23);
    }
    vec4 _e29 = reg0_0_;
    PsOut _tmp_return = PsOut(_e29);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

