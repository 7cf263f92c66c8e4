struct PsOut {
    float4 oC0_ : SV_Target0;
};

Texture2D<float4> t0_ : register(t0);
SamplerState s0_ : register(s0);
cbuffer c : register(b0) { float4 c[8]; }
Texture2D<float4> t3_ : register(t3);
SamplerState s3_ : register(s3);

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
    float4 texcoord2_2_1 : LOC2;
    float4 texcoord3_3_1 : LOC3;
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
    float4 texcoord3_3_ = fragmentinput_main.texcoord3_3_1;
    float4 _e7 = t0_.Sample(s0_, texcoord0_0_.xy);
    float4 _e12 = clamp(_e7, (-8.0).xxxx, (8.0).xxxx);
    float4 _e39 = float4(dot(((_e12 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord1_1_).xyz, ((texcoord1_1_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e12).xyz), dot(((_e12 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord2_2_).xyz, ((texcoord2_2_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e12).xyz), dot(((_e12 == ZeroValuefloat4()) ? ZeroValuefloat4() : texcoord3_3_).xyz, ((texcoord3_3_ == ZeroValuefloat4()) ? ZeroValuefloat4() : _e12).xyz), 0.0);
    float4 _e49 = clamp(float4(0.0, 0.0, 1.0, 0.0), (-1.0).xxxx, (1.0).xxxx);
    float _e65 = dot(((_e39 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e39).xyz, ((_e39 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e39).xyz);
    float4 _e69 = ((2.0 * (dot(((_e49 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e39).xyz, ((_e39 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e49).xyz) / _e65))).xxxx;
    float4 _e83 = t3_.Sample(s3_, ((_e65 == 0.0) ? -(_e49) : ((((_e69 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e39) * ((_e39 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e69)) - _e49)).xy);
    const PsOut psout = ConstructPsOut(saturate(clamp(clamp(_e83, (-8.0).xxxx, (8.0).xxxx), (-8.0).xxxx, (8.0).xxxx)));
    return psout;
}
