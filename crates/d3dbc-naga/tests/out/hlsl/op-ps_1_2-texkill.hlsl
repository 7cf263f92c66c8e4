struct PsOut {
    float4 oC0_ : SV_Target0;
};

static bool killed = (bool)0;
Texture2D<float4> t0_ : register(t0);
SamplerState s0_ : register(s0);

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
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
    float4 texcoord1_1_ = fragmentinput_main.texcoord1_1_1;
    killed = false;
    float4 _e7 = t0_.Sample(s0_, texcoord0_0_.xy);
    bool4 _e14 = (texcoord1_1_ < ZeroValuefloat4());
    if (((_e14.x || _e14.y) || _e14.z)) {
        killed = true;
    }
    bool _e28 = killed;
    if (_e28) {
        discard;
    }
    const PsOut psout = ConstructPsOut(saturate(clamp(clamp(_e7, (-8.0).xxxx, (8.0).xxxx), (-8.0).xxxx, (8.0).xxxx)));
    return psout;
}
