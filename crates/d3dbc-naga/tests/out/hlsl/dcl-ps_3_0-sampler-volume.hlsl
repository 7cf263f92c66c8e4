struct PsOut {
    float4 oC0_ : SV_Target0;
};

Texture3D<float4> t3_ : register(t22);
SamplerState nagaSamplerHeap[2048]: register(s0, space0);
SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);
StructuredBuffer<uint> nagaGroup0SamplerIndexArray : register(t0, space255);
static const SamplerState s3_ = nagaSamplerHeap[nagaGroup0SamplerIndexArray[23]];

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
