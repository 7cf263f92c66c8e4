#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(binding = 16) uniform sampler2D _group_0_binding_16_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 _e1 = dFdxFine(texcoord0_0_);
    vec4 _e2 = dFdyFine(texcoord0_0_);
    vec4 _e8 = textureGrad(_group_0_binding_16_fs, vec2(texcoord0_0_.xy), _e1.xy, _e2.xy);
    PsOut _tmp_return = PsOut(_e8);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

