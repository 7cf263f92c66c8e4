struct PsOut {
    float4 oC0_ : SV_Target0;
};

static bool killed = (bool)0;
cbuffer c : register(b0) { float4 c[224]; }

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
};

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
    float4 texcoord0_0_ = fragmentinput_main.texcoord0_0_1;
    float4 reg8_0_ = (float4)0;

    killed = false;
    float4 _e6 = c[0];
    if ((texcoord0_0_.xxxx.x < _e6.xxxx.x)) {
        bool4 _e12 = (texcoord0_0_ < ZeroValuefloat4());
        if ((((_e12.x || _e12.y) || _e12.z) || _e12.w)) {
            killed = true;
        }
    }
    bool _e23 = killed;
    if (_e23) {
        discard;
    }
    const PsOut psout = ConstructPsOut(texcoord0_0_);
    return psout;
}
