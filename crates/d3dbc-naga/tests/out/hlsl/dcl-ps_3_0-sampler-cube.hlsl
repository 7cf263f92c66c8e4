struct PsOut {
    float4 oC0_ : SV_Target0;
};

TextureCube<float4> t3_ : register(t3);
SamplerState s3_ : register(s3);

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
    float4 _e4 = t3_.Sample(s3_, texcoord0_0_.xyz);
    const PsOut psout = ConstructPsOut(_e4);
    return psout;
}
