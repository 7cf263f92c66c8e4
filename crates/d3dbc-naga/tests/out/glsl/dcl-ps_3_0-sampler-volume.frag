#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(binding = 22) uniform sampler3D _group_0_binding_22_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 _e4 = texture(_group_0_binding_22_fs, vec3(texcoord0_0_.xyz));
    PsOut _tmp_return = PsOut(_e4);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

