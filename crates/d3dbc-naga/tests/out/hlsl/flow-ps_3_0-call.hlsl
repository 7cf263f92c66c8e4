struct PsOut {
    float4 oC0_ : SV_Target0;
};

static float4 reg0_0_ = (float4)0;
static float4 reg0_1_ = (float4)0;
static float4 reg0_2_ = (float4)0;
static float4 reg1_0_ = (float4)0;
static float4 reg1_1_ = (float4)0;
static float4 reg1_2_ = (float4)0;
static float4 reg8_0_ = (float4)0;
cbuffer c : register(b0) { float4 c[224]; }
cbuffer b : register(b2) { uint4 b[16]; }

struct FragmentInput_main {
    float4 texcoord0_0_1 : LOC0;
    float4 texcoord1_1_1 : LOC1;
    float4 color0_2_1 : LOC8;
};

void l1_()
{
    float4 _e1 = reg0_0_;
    float4 _e3 = reg0_1_;
    reg0_0_ = (_e1 + _e3);
}

float4 ZeroValuefloat4() {
    return (float4)0;
}

void l2_()
{
    float4 _e1 = reg0_0_;
    float4 _e3 = reg0_1_;
    reg0_0_ = (((_e3 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e1) * ((_e1 == ZeroValuefloat4()) ? ZeroValuefloat4() : _e3));
}

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
    reg1_0_ = texcoord0_0_;
    reg1_1_ = texcoord1_1_;
    reg1_2_ = color0_2_;
    float4 _e6 = reg1_0_;
    float4 _e7 = reg1_1_;
    reg0_0_ = float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = _e6;
    reg0_2_ = _e7;
    l1_();
    uint4 _e18 = b[2];
    if ((_e18.x != 0u)) {
        l2_();
    }
    float4 _e22 = reg0_0_;
    const PsOut psout = ConstructPsOut(_e22);
    return psout;
}
