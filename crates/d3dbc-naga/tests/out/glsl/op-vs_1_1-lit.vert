#version 450 core
struct VsOut {
    vec4 position;
    vec4 texcoord0_;
    vec4 texcoord1_;
    vec4 texcoord2_;
    vec4 texcoord3_;
    vec4 texcoord4_;
    vec4 texcoord5_;
    vec4 texcoord6_;
    vec4 texcoord7_;
    vec4 color0_;
    vec4 color1_;
    vec4 fog0_;
};
layout(std140, binding = 6) uniform type_7_block_0Vertex { vec4 _group_0_binding_6_vs[30]; };

layout(location = 0) in vec4 _p2vs_location0;
layout(location = 1) in vec4 _p2vs_location1;
layout(location = 0) smooth out vec4 _vs2fs_location0;
layout(location = 1) smooth out vec4 _vs2fs_location1;
layout(location = 2) smooth out vec4 _vs2fs_location2;
layout(location = 3) smooth out vec4 _vs2fs_location3;
layout(location = 4) smooth out vec4 _vs2fs_location4;
layout(location = 5) smooth out vec4 _vs2fs_location5;
layout(location = 6) smooth out vec4 _vs2fs_location6;
layout(location = 7) smooth out vec4 _vs2fs_location7;
layout(location = 8) smooth out vec4 _vs2fs_location8;
layout(location = 9) smooth out vec4 _vs2fs_location9;
layout(location = 10) smooth out vec4 _vs2fs_location10;

void main() {
    vec4 v0_ = _p2vs_location0;
    vec4 v1_ = _p2vs_location1;
    float _e9 = clamp(v0_.w, -127.9961, 127.9961);
    bool _e10 = (v0_.x > 0.0);
    float _e14 = log2(v0_.y);
    vec4 _e23 = vec4(1.0, (_e10 ? v0_.x : 0.0), ((_e10 && (v0_.y > 0.0)) ? exp2((((_e14 == 0.0) ? 0.0 : _e9) * ((_e9 == 0.0) ? 0.0 : _e14))) : 0.0), 1.0);
    vec4 _e26 = _group_0_binding_6_vs[0];
    vec4 _e29 = (_e26 * vec4(_e23.w));
    VsOut _tmp_return = VsOut((_e23 + vec4(_e29.x, _e29.y, 0.0, 0.0)), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(1.0), vec4(0.0), vec4(0.0));
    gl_Position = _tmp_return.position;
    _vs2fs_location0 = _tmp_return.texcoord0_;
    _vs2fs_location1 = _tmp_return.texcoord1_;
    _vs2fs_location2 = _tmp_return.texcoord2_;
    _vs2fs_location3 = _tmp_return.texcoord3_;
    _vs2fs_location4 = _tmp_return.texcoord4_;
    _vs2fs_location5 = _tmp_return.texcoord5_;
    _vs2fs_location6 = _tmp_return.texcoord6_;
    _vs2fs_location7 = _tmp_return.texcoord7_;
    _vs2fs_location8 = _tmp_return.color0_;
    _vs2fs_location9 = _tmp_return.color1_;
    _vs2fs_location10 = _tmp_return.fog0_;
    gl_Position.yz = vec2(-gl_Position.y, gl_Position.z * 2.0 - gl_Position.w);
    return;
}

