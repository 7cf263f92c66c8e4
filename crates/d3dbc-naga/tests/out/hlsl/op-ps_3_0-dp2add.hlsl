struct PsOut {
    float4 oC0_ : SV_Target0;
};

cbuffer c : register(b0) { float4 c[224]; }

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
    float4 color0_2_1 : LOC8;
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
    float4 color0_2_ = fragmentinput_main.color0_2_1;
    const PsOut psout = ConstructPsOut(((dot(((texcoord1_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord0_0_).xy, ((texcoord0_0_ == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord1_1_).xy) + float4(0.5, 1.0, 2.0, 0.25).xxxx.x)).xxxx);
    return psout;
}
