struct PsOut {
    float4 oC0_ : SV_Target0;
};

Texture2D<float4> t0_ : register(t0);
SamplerState s0_ : register(s0);
Texture2D<float4> t1_ : register(t1);
SamplerState s1_ : register(s1);

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
};

PsOut ConstructPsOut(float4 arg0) {
    PsOut ret = (PsOut)0;
    ret.oC0_ = arg0;
    return ret;
}

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 texcoord0_0_ = fragmentinput_main.texcoord0_0_1;
    float4 texcoord1_1_ = fragmentinput_main.texcoord1_1_1;
    float4 _e5 = t0_.Sample(s0_, texcoord0_0_.xy);
    float4 _e15 = t1_.Sample(s1_, clamp(_e5, (-8.0).xxxx, (8.0).xxxx).wxxx.xy);
    const PsOut psout = ConstructPsOut(saturate(clamp(clamp(_e15, (-8.0).xxxx, (8.0).xxxx), (-8.0).xxxx, (8.0).xxxx)));
    return psout;
}
