#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(binding = 16) uniform sampler2D _group_0_binding_16_fs;

layout(binding = 18) uniform sampler2D _group_0_binding_18_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    vec4 _e5 = texture(_group_0_binding_16_fs, vec2(texcoord0_0_.xy));
    vec4 _e14 = texture(_group_0_binding_18_fs, vec2(texcoord1_1_.xy));
    PsOut _tmp_return = PsOut(clamp(clamp((-(clamp(clamp(_e5, vec4(-8.0), vec4(8.0)), vec4(-8.0), vec4(8.0))) + clamp(vec4(0.5, 1.0, 0.25, 0.0), vec4(-1.0), vec4(1.0))), vec4(-8.0), vec4(8.0)), vec4(0.0), vec4(1.0)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

