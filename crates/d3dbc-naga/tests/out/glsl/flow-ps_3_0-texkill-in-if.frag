#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(std140, binding = 3) uniform type_7_block_0Fragment { vec4 _group_0_binding_3_fs[224]; };

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 reg8_0_ = vec4(0.0);
    vec4 _e4 = _group_0_binding_3_fs[0];
    if ((texcoord0_0_.xxxx.x < _e4.xxxx.x)) {
        bvec4 _e10 = lessThan(texcoord0_0_, vec4(0.0));
        if ((((_e10.x || _e10.y) || _e10.z) || _e10.w)) {
            discard;
        }
    }
    PsOut _tmp_return = PsOut(texcoord0_0_);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

