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
layout(std140, binding = 0) uniform type_7_block_0Vertex { vec4 _group_0_binding_0_vs[256]; };

layout(std140, binding = 6) uniform type_8_block_1Vertex { vec4 _group_0_binding_6_vs[30]; };

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
    int _e10 = (mix(ivec4(0), ivec4(roundEven(v0_.xxxx)), bvec4(true, false, false, false)).x + 1);
    uint _e11 = uint(_e10);
    vec4 _e18 = _group_0_binding_0_vs[min(_e11, 255u)];
    vec4 _e28 = ((_e10 == 0) ? vec4(0.5, 1.0, 2.0, 0.25) : ((_e11 < 256u) ? _e18 : vec4(0.0)));
    vec4 _e31 = _group_0_binding_6_vs[0];
    vec4 _e34 = (_e31 * vec4(_e28.w));
    VsOut _tmp_return = VsOut((_e28 + vec4(_e34.x, _e34.y, 0.0, 0.0)), v0_, vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(1.0), vec4(0.0), vec4(1.0));
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

