#version 450 core
struct PsOut {
    vec4 oC0_;
};
bool killed = false;

layout(binding = 16) uniform sampler2D _group_0_binding_16_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    killed = false;
    vec4 _e7 = texture(_group_0_binding_16_fs, vec2(texcoord0_0_.xy));
    bvec4 _e14 = lessThan(texcoord1_1_, vec4(0.0));
    if (((_e14.x || _e14.y) || _e14.z)) {
        killed = true;
    }
    bool _e28 = killed;
    if (_e28) {
        discard;
    }
    PsOut _tmp_return = PsOut(clamp(clamp(clamp(_e7, vec4(-8.0), vec4(8.0)), vec4(-8.0), vec4(8.0)), vec4(0.0), vec4(1.0)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

