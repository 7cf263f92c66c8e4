#version 450 core
struct PsOut {
    vec4 oC0_;
};
vec4 reg0_0_ = vec4(0.0);

vec4 reg0_1_ = vec4(0.0);

vec4 reg0_2_ = vec4(0.0);

vec4 reg1_0_ = vec4(0.0);

vec4 reg3_0_ = vec4(0.0);

vec4 reg3_1_ = vec4(0.0);

bvec4 reg19_0_ = bvec4(false);

layout(location = 8) smooth in vec4 _vs2fs_location8;
layout(location = 0) smooth in vec4 _vs2fs_location0;
layout(location = 1) smooth in vec4 _vs2fs_location1;
layout(location = 0) out vec4 _fs2p_location0;

void l1_() {
}

void main() {
    vec4 color0_0_ = _vs2fs_location8;
    vec4 texcoord0_1_ = _vs2fs_location0;
    vec4 texcoord1_2_ = _vs2fs_location1;
    int count = 0;
    reg1_0_ = color0_0_;
    reg3_0_ = texcoord0_1_;
    reg3_1_ = texcoord1_2_;
    vec4 _e6 = reg3_0_;
    vec4 _e7 = reg3_1_;
    vec4 _e12 = vec4(0.5, 1.0, 2.0, 0.25);
    bvec4 _e13 = notEqual(_e6, _e7);
    vec4 _e17 = mix(_e12, (_e12 + _e6), _e13);
    vec4 _e18 = _e17.yyyy;
    vec4 _e19 = _e7.yyyy;
    reg0_0_ = mix(_e17, mix(_e17, (mix(_e18, vec4(0.0), equal(_e19, vec4(0.0))) * mix(_e19, vec4(0.0), equal(_e18, vec4(0.0)))), bvec4(false, true, false, false)), not(_e13.yyyy));
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    reg19_0_ = _e13;
    if (_e13.x) {
        vec4 _e41 = reg0_0_;
        reg0_0_ = mix(_e41, vec4(0.5, 1.0, 2.0, 0.25).xxxx, bvec4(false, false, true, false));
    }
    bvec4 _e44 = reg19_0_;
    if (!(_e44.z)) {
        l1_();
    }
    count = ivec4(2, 0, 0, 0).x;
    bool loop_init = true;
    while(true) {
        if (!loop_init) {
            int _e61 = count;
            count = (_e61 - 1);
        }
        loop_init = false;
        int _e55 = count;
        if ((_e55 <= 0)) {
            break;
        }
        bvec4 _e58 = reg19_0_;
        if (_e58.w) {
            break;
        }
    }
    vec4 _e64 = reg0_0_;
    PsOut _tmp_return = PsOut(_e64);
    _fs2p_location0 = _tmp_return.oC0_;
    return;
}

