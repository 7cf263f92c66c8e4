#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(std140, binding = 3) uniform type_7_block_0Fragment { vec4 _group_0_binding_3_fs[32]; };

layout(location = 8) smooth in vec4 _vs2fs_location8;
layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 color0_0_ = _vs2fs_location8;
    vec4 texcoord0_1_ = _vs2fs_location0;
    vec4 texcoord1_2_ = _vs2fs_location1;
    vec4 _e5 = _group_0_binding_3_fs[1];
    vec4 _e16 = _group_0_binding_3_fs[2];
    vec4 _e27 = _group_0_binding_3_fs[3];
    vec4 _e38 = _group_0_binding_3_fs[4];
    PsOut _tmp_return = PsOut(vec4(dot(mix(texcoord0_1_, vec4(0.0), equal(_e5, vec4(0.0))).xyz, mix(_e5, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz), dot(mix(texcoord0_1_, vec4(0.0), equal(_e16, vec4(0.0))).xyz, mix(_e16, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz), dot(mix(texcoord0_1_, vec4(0.0), equal(_e27, vec4(0.0))).xyz, mix(_e27, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz), dot(mix(texcoord0_1_, vec4(0.0), equal(_e38, vec4(0.0))).xyz, mix(_e38, vec4(0.0), equal(texcoord0_1_, vec4(0.0))).xyz)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

