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

PsOut main(FragmentInput_main fragmentinput_main)
{
    float4 texcoord0_0_ = fragmentinput_main.texcoord0_0_1;
    float4 texcoord1_1_ = fragmentinput_main.texcoord1_1_1;
    float4 color0_2_ = fragmentinput_main.color0_2_1;
    float4 reg0_0_ = (float4)0;
    float4 reg0_1_ = (float4)0;
    float4 reg0_2_ = (float4)0;
    float4 reg8_0_ = (float4)0;
    int reg15_0_ = (int)0;
    int count = (int)0;
    int saved_aL = (int)0;

    int4 _e12 = int4(int(4), int(0), int(1), int(0));
    int _e17 = reg15_0_;
    saved_aL = _e17;
    reg0_0_ = float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = texcoord0_0_;
    reg0_2_ = texcoord1_1_;
    reg15_0_ = _e12.y;
    count = _e12.x;
    bool loop_init = true;
    [loop] while(true) {
        if (!loop_init) {
            int _e31 = count;
            count = asint(asuint(_e31) - asuint(int(1)));
            int _e34 = reg15_0_;
            reg15_0_ = asint(asuint(_e34) + asuint(_e12.z));
        }
        loop_init = false;
        int _e24 = count;
        if ((_e24 <= int(0))) {
            break;
        }
        float4 _e27 = reg0_0_;
        float4 _e28 = reg0_1_;
        reg0_0_ = (_e27 + _e28);
    }
    float4 _e38 = reg0_0_;
    const PsOut psout = ConstructPsOut(_e38);
    return psout;
}
