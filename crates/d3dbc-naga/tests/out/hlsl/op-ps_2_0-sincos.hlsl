struct PsOut {
    float4 oC0_ : SV_Target0;
};

cbuffer c : register(b0) { float4 c[32]; }

struct FragmentInput_main {
    float4 texcoord0_1_1 : LOC0;
    float4 texcoord1_2_1 : LOC1;
    float4 color0_0_1 : LOC8;
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
    float4 color0_0_ = fragmentinput_main.color0_0_1;
    float4 texcoord0_1_ = fragmentinput_main.texcoord0_1_1;
    float4 texcoord1_2_ = fragmentinput_main.texcoord1_2_1;
    const PsOut psout = ConstructPsOut((bool4(false, false, true, true) ? float4(0.5, 1.0, 2.0, 0.25).yyyy : (bool4(true, true, false, false) ? float4(cos(texcoord0_1_.xxxx.w), sin(texcoord0_1_.xxxx.w), 0.0, 0.0) : ZeroValuefloat4())));
    return psout;
}
