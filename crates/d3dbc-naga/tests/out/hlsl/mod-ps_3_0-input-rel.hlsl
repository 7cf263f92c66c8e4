struct PsOut {
    float4 oC0_ : SV_Target0;
};

cbuffer c : register(b0) { float4 c[224]; }

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
    float4 reg0_0_ = (float4)0;
    float4 reg8_0_ = (float4)0;
    int reg15_0_ = (int)0;
    int count = (int)0;
    int saved_aL = (int)0;

    float4 _e5 = c[0];
    int4 _e10 = int4(int(3), int(0), int(1), int(0));
    int _e15 = reg15_0_;
    saved_aL = _e15;
    reg0_0_ = _e5;
    reg15_0_ = _e10.y;
    count = _e10.x;
    bool loop_init = true;
    [loop] while(true) {
        if (!loop_init) {
            int _e39 = count;
            count = asint(asuint(_e39) - asuint(int(1)));
            int _e42 = reg15_0_;
            reg15_0_ = asint(asuint(_e42) + asuint(_e10.z));
        }
        loop_init = false;
        int _e20 = count;
        if ((_e20 <= int(0))) {
            break;
        }
        float4 _e23 = reg0_0_;
        int _e24 = reg15_0_;
        int _e26 = asint(asuint(_e24) + asuint(int(0)));
        reg0_0_ = (_e23 + ((_e26 == int(2)) ? texcoord2_2_ : ((_e26 == int(1)) ? texcoord1_1_ : ((_e26 == int(0)) ? texcoord0_0_ : ZeroValuefloat4()))));
    }
    float4 _e46 = reg0_0_;
    const PsOut psout = ConstructPsOut(_e46);
    return psout;
}
