#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(std140, binding = 3) uniform type_7_block_0Fragment { vec4 _group_0_binding_3_fs[224]; };

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    vec4 texcoord2_2_ = _vs2fs_location2;
    vec4 reg0_0_ = vec4(0.0);
    vec4 reg8_0_ = vec4(0.0);
    int reg15_0_ = 0;
    int count = 0;
    int saved_aL = 0;
    vec4 _e5 = _group_0_binding_3_fs[0];
    ivec4 _e10 = ivec4(3, 0, 1, 0);
    int _e15 = reg15_0_;
    saved_aL = _e15;
    reg0_0_ = _e5;
    reg15_0_ = _e10.y;
    count = _e10.x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e39 = count;
            count = (_e39 - 1);
            int _e42 = reg15_0_;
            reg15_0_ = (_e42 + _e10.z);
        }
        loop_init = false;
        int _e20 = count;
        if ((_e20 <= 0)) {
            break;
        }
        vec4 _e23 = reg0_0_;
        int _e24 = reg15_0_;
        int _e26 = (_e24 + 0);
        reg0_0_ = (_e23 + ((_e26 == 2) ? texcoord2_2_ : ((_e26 == 1) ? texcoord1_1_ : ((_e26 == 0) ? texcoord0_0_ : vec4(0.0)))));
    }
    vec4 _e46 = reg0_0_;
    PsOut _tmp_return = PsOut(_e46);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

