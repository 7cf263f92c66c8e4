struct PsOut {
    float4 oC0_ : SV_Target0;
};

static float4 reg0_0_ = (float4)0;
static float4 reg0_1_ = (float4)0;
static float4 reg0_2_ = (float4)0;
static float4 reg1_0_ = (float4)0;
static float4 reg3_0_ = (float4)0;
static float4 reg3_1_ = (float4)0;
static float4 reg8_0_ = (float4)0;
static bool4 reg19_0_ = (bool4)0;
cbuffer c : register(b0) { float4 c[32]; }

struct FragmentInput_main {
    float4 texcoord0_1_1 : LOC0;
    float4 texcoord1_2_1 : LOC1;
    float4 color0_0_1 : LOC8;
};

void l1_()
{
}

PsOut ConstructPsOut(float4 arg0) {
    PsOut ret = (PsOut)0;
    ret.oC0_ = arg0;
    return ret;
}

float4 ZeroValuefloat4() {
    return (float4)0;
}

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 color0_0_ = fragmentinput_main.color0_0_1;
    float4 texcoord0_1_ = fragmentinput_main.texcoord0_1_1;
    float4 texcoord1_2_ = fragmentinput_main.texcoord1_2_1;
    int count = (int)0;

    reg1_0_ = color0_0_;
    reg3_0_ = texcoord0_1_;
    reg3_1_ = texcoord1_2_;
    float4 _e6 = reg3_0_;
    float4 _e7 = reg3_1_;
    float4 _e12 = float4(0.5, 1.0, 2.0, 0.25);
    bool4 _e13 = (_e6 != _e7);
    float4 _e17 = (_e13 ? (_e12 + _e6) : _e12);
    float4 _e18 = _e17.yyyy;
    float4 _e19 = _e7.yyyy;
    reg0_0_ = (!(_e13.yyyy) ? (bool4(false, true, false, false) ? (((_e19 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e18) * ((_e18 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e19)) : _e17) : _e17);
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    reg19_0_ = _e13;
    if (_e13.x) {
        float4 _e41 = reg0_0_;
        reg0_0_ = (bool4(false, false, true, false) ? float4(0.5, 1.0, 2.0, 0.25).xxxx : _e41);
    }
    bool4 _e44 = reg19_0_;
    if (!(_e44.z)) {
        l1_();
    }
    count = int4(int(2), int(0), int(0), int(0)).x;
    bool loop_init = true;
    [loop] while(true) {
        if (!loop_init) {
            int _e61 = count;
            count = asint(asuint(_e61) - asuint(int(1)));
        }
        loop_init = false;
        int _e55 = count;
        if ((_e55 <= int(0))) {
            break;
        }
        bool4 _e58 = reg19_0_;
        if (_e58.w) {
            break;
        }
    }
    float4 _e64 = reg0_0_;
    const PsOut psout = ConstructPsOut(_e64);
    return psout;
}
