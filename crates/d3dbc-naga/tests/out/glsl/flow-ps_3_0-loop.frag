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
    int reg15_0_ = 0;
    int count = 0;
    int saved_aL = 0;
    ivec4 _e12 = ivec4(4, 0, 1, 0);
    int _e17 = reg15_0_;
    saved_aL = _e17;
    reg0_0_ = vec4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    reg15_0_ = _e12.y;
    count = _e12.x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e31 = count;
            count = (_e31 - 1);
            int _e34 = reg15_0_;
            reg15_0_ = (_e34 + _e12.z);
        }
        loop_init = false;
        int _e24 = count;
        if ((_e24 <= 0)) {
            break;
        }
        vec4 _e27 = reg0_0_;
        vec4 _e28 = reg0_1_;
        reg0_0_ = (_e27 + _e28);
    }
    vec4 _e38 = reg0_0_;
    PsOut _tmp_return = PsOut(_e38);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

