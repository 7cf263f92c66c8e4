#version 450 core
struct PsOut {
    vec4 oC0_;
};
bool killed = false;

layout(std140, binding = 3) uniform type_7_block_0Fragment { vec4 _group_0_binding_3_fs[224]; };

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 reg8_0_ = vec4(0.0);
    killed = false;
    vec4 _e6 = _group_0_binding_3_fs[0];
    if ((texcoord0_0_.xxxx.x < _e6.xxxx.x)) {
        bvec4 _e12 = lessThan(texcoord0_0_, vec4(0.0));
        if ((((_e12.x || _e12.y) || _e12.z) || _e12.w)) {
            killed = true;
        }
    }
    bool _e23 = killed;
    if (_e23) {
        discard;
    }
    PsOut _tmp_return = PsOut(texcoord0_0_);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

