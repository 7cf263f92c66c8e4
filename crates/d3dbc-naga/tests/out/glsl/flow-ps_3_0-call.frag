#version 450 core
struct PsOut {
    vec4 oC0_;
};
vec4 reg0_0_ = vec4(0.0);

vec4 reg0_1_ = vec4(0.0);

vec4 reg0_2_ = vec4(0.0);

vec4 reg1_0_ = vec4(0.0);

vec4 reg1_1_ = vec4(0.0);

vec4 reg1_2_ = vec4(0.0);

layout(std140, binding = 5) uniform type_8_block_0Fragment { uvec4 _group_0_binding_5_fs[16]; };

layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 8) smooth in vec4 _vs2fs_location8;
layout(location = 0) out vec4 _fs2p_location0;

void l1_() {
    vec4 _e1 = reg0_0_;
    vec4 _e3 = reg0_1_;
    reg0_0_ = (_e1 + _e3);
}

void l2_() {
    vec4 _e1 = reg0_0_;
    vec4 _e3 = reg0_1_;
    reg0_0_ = (mix(_e1, vec4(0.0), equal(_e3, vec4(0.0))) * mix(_e3, vec4(0.0), equal(_e1, vec4(0.0))));
}

void main() {
    vec4 texcoord0_0_ = _vs2fs_location0;
    vec4 texcoord1_1_ = _vs2fs_location1;
    vec4 color0_2_ = _vs2fs_location8;
    reg1_0_ = texcoord0_0_;
    reg1_1_ = texcoord1_1_;
    reg1_2_ = color0_2_;
    vec4 _e6 = reg1_0_;
    vec4 _e7 = reg1_1_;
    reg0_0_ = vec4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    l1_();
    uvec4 _e18 = _group_0_binding_5_fs[2];
    if ((_e18.x != 0u)) {
        l2_();
    }
    vec4 _e22 = reg0_0_;
    PsOut _tmp_return = PsOut(_e22);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

