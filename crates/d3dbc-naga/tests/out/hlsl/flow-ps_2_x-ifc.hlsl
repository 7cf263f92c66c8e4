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

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 color0_0_ = fragmentinput_main.color0_0_1;
    float4 texcoord0_1_ = fragmentinput_main.texcoord0_1_1;
    float4 texcoord1_2_ = fragmentinput_main.texcoord1_2_1;
    float4 reg0_0_ = (float4)0;
    float4 reg0_1_ = (float4)0;
    float4 reg0_2_ = (float4)0;
    float4 reg8_0_ = (float4)0;

    reg0_0_ = float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_1_;
    reg0_2_ = texcoord1_2_;
    if ((texcoord0_1_.xxxx.x > float4(0.5, 1.0, 2.0, 0.25).yyyy.x)) {
        float4 _e21 = reg0_0_;
        float4 _e22 = reg0_1_;
        reg0_0_ = (_e21 + _e22);
    }
    float4 _e24 = reg0_1_;
    float4 _e26 = reg0_2_;
    if ((_e24.yyyy.x <= _e26.xxxx.x)) {
        float4 _e37 = reg0_0_;
        reg0_0_ = (bool4(true, false, false, false) ? float4(0.5, 1.0, 2.0, 0.25).wwww : _e37);
    }
    float4 _e40 = reg0_0_;
    const PsOut psout = ConstructPsOut(_e40);
    return psout;
}
