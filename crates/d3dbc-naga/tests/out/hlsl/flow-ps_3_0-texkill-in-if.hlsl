struct PsOut {
    float4 oC0_ : SV_Target0;
};

cbuffer c : register(b3) { float4 c[224]; }

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
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
    float4 reg8_0_ = (float4)0;

    float4 _e4 = c[0];
    if ((texcoord0_0_.xxxx.x < _e4.xxxx.x)) {
        bool4 _e10 = (texcoord0_0_ < ZeroValuefloat4());
        if ((((_e10.x || _e10.y) || _e10.z) || _e10.w)) {
            discard;
        }
    }
    const PsOut psout = ConstructPsOut(texcoord0_0_);
    return psout;
}
