struct PsOut {
    float4 oC0_ : SV_Target0;
};

Texture2D<float4> t2_ : register(t2);
SamplerState s2_ : register(s2);
cbuffer c : register(b0) { float4 c[8]; }

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
    float4 texcoord2_2_1 : LOC2;
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
    float4 texcoord2_2_ = fragmentinput_main.texcoord2_2_1;
    float4 _e14 = t2_.Sample(s2_, texcoord1_1_.xy);
    const PsOut psout = ConstructPsOut(saturate(clamp((((bool4(false, false, false, true) ? clamp(clamp(float4(0.5, 1.0, 0.25, 0.0), (-1.0).xxxx, (1.0).xxxx).yyyy, (-8.0).xxxx, (8.0).xxxx) : (bool4(true, true, true, false) ? clamp(texcoord0_0_, (-8.0).xxxx, (8.0).xxxx) : ZeroValuefloat4())) >= ZeroValuefloat4()) ? clamp(float4(0.5, 1.0, 0.25, 0.0), (-1.0).xxxx, (1.0).xxxx) : clamp(_e14, (-8.0).xxxx, (8.0).xxxx)), (-8.0).xxxx, (8.0).xxxx)));
    return psout;
}
