#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(binding = 16) uniform sampler2D _group_0_binding_16_fs;

layout(binding = 22) uniform sampler2D _group_0_binding_22_fs;

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 2) smooth in vec4 _vs2fs_location2;
layout(location = 3) smooth in vec4 _vs2fs_location3;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    vec4 texcoord2_2_ = _vs2fs_location2;
    vec4 texcoord3_3_ = _vs2fs_location3;
    vec4 _e7 = texture(_group_0_binding_16_fs, vec2(texcoord0_0_.xy));
    vec4 _e12 = clamp(_e7, vec4(-8.0), vec4(8.0));
    vec4 _e39 = vec4(dot(mix(texcoord1_1_, vec4(0.0), equal(_e12, vec4(0.0))).xyz, mix(_e12, vec4(0.0), equal(texcoord1_1_, vec4(0.0))).xyz), dot(mix(texcoord2_2_, vec4(0.0), equal(_e12, vec4(0.0))).xyz, mix(_e12, vec4(0.0), equal(texcoord2_2_, vec4(0.0))).xyz), dot(mix(texcoord3_3_, vec4(0.0), equal(_e12, vec4(0.0))).xyz, mix(_e12, vec4(0.0), equal(texcoord3_3_, vec4(0.0))).xyz), 0.0);
    vec4 _e49 = clamp(vec4(0.0, 0.0, 1.0, 0.0), vec4(-1.0), vec4(1.0));
    float _e65 = dot(mix(_e39, vec4(0.0), equal(_e39, vec4(0.0))).xyz, mix(_e39, vec4(0.0), equal(_e39, vec4(0.0))).xyz);
    vec4 _e69 = vec4((2.0 * (dot(mix(_e39, vec4(0.0), equal(_e49, vec4(0.0))).xyz, mix(_e49, vec4(0.0), equal(_e39, vec4(0.0))).xyz) / _e65)));
    vec4 _e83 = texture(_group_0_binding_22_fs, vec2(((_e65 == 0.0) ? -(_e49) : ((mix(_e39, vec4(0.0), equal(_e69, vec4(0.0))) * mix(_e69, vec4(0.0), equal(_e39, vec4(0.0)))) - _e49)).xy));
    PsOut _tmp_return = PsOut(clamp(clamp(clamp(_e83, vec4(-8.0), vec4(8.0)), vec4(-8.0), vec4(8.0)), vec4(0.0), vec4(1.0)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

