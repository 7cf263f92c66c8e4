struct PsOut {
    float4 oC0_ : SV_Target0;
};

Texture2D<float4> t0_ : register(t0);
SamplerState s0_ : register(s0);

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
};

PsOut ConstructPsOut(float4 arg0) {
    PsOut ret = (PsOut)0;
    ret.oC0_ = arg0;
    return ret;
}

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 texcoord0_0_ = fragmentinput_main.texcoord0_0_1;
    float4 _e1 = ddx_fine(texcoord0_0_);
    float4 _e2 = ddy_fine(texcoord0_0_);
    float4 _e8 = t0_.SampleGrad(s0_, texcoord0_0_.xy, _e1.xy, _e2.xy);
    const PsOut psout = ConstructPsOut(_e8);
    return psout;
}
