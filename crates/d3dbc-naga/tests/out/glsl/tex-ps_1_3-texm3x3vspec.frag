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
    vec4 _e43 = vec4(texcoord1_1_.w, texcoord2_2_.w, texcoord3_3_.w, 0.0);
    float _e59 = dot(mix(_e39, vec4(0.0), equal(_e39, vec4(0.0))).xyz, mix(_e39, vec4(0.0), equal(_e39, vec4(0.0))).xyz);
    vec4 _e63 = vec4((2.0 * (dot(mix(_e39, vec4(0.0), equal(_e43, vec4(0.0))).xyz, mix(_e43, vec4(0.0), equal(_e39, vec4(0.0))).xyz) / _e59)));
    vec4 _e77 = texture(_group_0_binding_22_fs, vec2(((_e59 == 0.0) ? -(_e43) : ((mix(_e39, vec4(0.0), equal(_e63, vec4(0.0))) * mix(_e63, vec4(0.0), equal(_e39, vec4(0.0)))) - _e43)).xy));
    PsOut _tmp_return = PsOut(clamp(clamp(clamp(_e77, vec4(-8.0), vec4(8.0)), vec4(-8.0), vec4(8.0)), vec4(0.0), vec4(1.0)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

