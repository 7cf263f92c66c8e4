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
    float4 _e5 = c[1];
    float4 _e16 = c[2];
    float4 _e27 = c[3];
    float4 _e38 = c[4];
    const PsOut psout = ConstructPsOut(float4(dot(((_e5 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord0_1_).xyz, ((texcoord0_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e5).xyz), dot(((_e16 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord0_1_).xyz, ((texcoord0_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e16).xyz), dot(((_e27 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord0_1_).xyz, ((texcoord0_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e27).xyz), dot(((_e38 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord0_1_).xyz, ((texcoord0_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e38).xyz)));
    return psout;
}
