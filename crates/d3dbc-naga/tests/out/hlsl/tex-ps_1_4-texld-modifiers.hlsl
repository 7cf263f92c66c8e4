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
    float4 _e9 = t0_.Sample(s0_, (texcoord0_0_ / (texcoord0_0_.z).xxxx).xy);
    float4 _e14 = clamp(_e9, (-8.0).xxxx, (8.0).xxxx);
    float4 _e15 = texcoord1_1_.xyww;
    float4 _e22 = t1_.Sample(s1_, (_e15 / (_e15.w).xxxx).xy);
    float4 _e27 = clamp(_e22, (-8.0).xxxx, (8.0).xxxx);
    float4 _e28 = texcoord2_2_.xyzz;
    const PsOut psout = ConstructPsOut(saturate(clamp((((_e27 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e14) * ((_e14 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e27)), (-8.0).xxxx, (8.0).xxxx)));
    return psout;
}
