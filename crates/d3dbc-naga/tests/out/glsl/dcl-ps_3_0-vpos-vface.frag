#version 450 core
struct PsOut {
    vec4 oC0_;
};
layout(location = 0) out vec4 _fs2p_location0;

void main() {
    vec4 frag_coord = gl_FragCoord;
    bool front_facing = gl_FrontFacing;
    PsOut _tmp_return = PsOut(mix(mix(vec4(0.0), (frag_coord - vec4(0.5, 0.5, 0.0, 0.0)), bvec4(true, true, false, false)), vec4((front_facing ? 1.0 : -1.0)).xxxx, bvec4(false, false, true, true)));
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

