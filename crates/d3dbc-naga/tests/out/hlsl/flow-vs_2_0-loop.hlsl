struct VsOut {
    float4 position : SV_Position;
    float4 texcoord0_ : LOC0;
    float4 texcoord1_ : LOC1;
    float4 texcoord2_ : LOC2;
    float4 texcoord3_ : LOC3;
    float4 texcoord4_ : LOC4;
    float4 texcoord5_ : LOC5;
    float4 texcoord6_ : LOC6;
    float4 texcoord7_ : LOC7;
    float4 color0_ : LOC8;
    float4 color1_ : LOC9;
    float4 fog0_ : LOC10;
};

cbuffer c : register(b0) { float4 c[256]; }
cbuffer driver : register(b3) { float4 driver[30]; }

struct VertexOutput_main {
    float4 texcoord0_ : LOC0;
    float4 texcoord1_ : LOC1;
    float4 texcoord2_ : LOC2;
    float4 texcoord3_ : LOC3;
    float4 texcoord4_ : LOC4;
    float4 texcoord5_ : LOC5;
    float4 texcoord6_ : LOC6;
    float4 texcoord7_ : LOC7;
    float4 color0_ : LOC8;
    float4 color1_ : LOC9;
    float4 fog0_ : LOC10;
    float4 position : SV_Position;
};

VsOut ConstructVsOut(float4 arg0, float4 arg1, float4 arg2, float4 arg3, float4 arg4, float4 arg5, float4 arg6, float4 arg7, float4 arg8, float4 arg9, float4 arg10, float4 arg11) {
    VsOut ret = (VsOut)0;
    ret.position = arg0;
    ret.texcoord0_ = arg1;
    ret.texcoord1_ = arg2;
    ret.texcoord2_ = arg3;
    ret.texcoord3_ = arg4;
    ret.texcoord4_ = arg5;
    ret.texcoord5_ = arg6;
    ret.texcoord6_ = arg7;
    ret.texcoord7_ = arg8;
    ret.color0_ = arg9;
    ret.color1_ = arg10;
    ret.fog0_ = arg11;
    return ret;
}

float4 ZeroValuefloat4() {
    return (float4)0;
}

VertexOutput_main main(float4 v0_ : LOC0, float4 v1_ : LOC1)
{
    float4 reg0_0_ = (float4)0;
    float4 reg0_1_ = (float4)0;
    float4 reg0_2_ = (float4)0;
    float4 reg4_0_ = (float4)0;
    int reg15_0_ = (int)0;
    int count = (int)0;
    int saved_aL = (int)0;

    int4 _e11 = int4(int(4), int(0), int(1), int(0));
    int _e16 = reg15_0_;
    saved_aL = _e16;
    reg0_0_ = float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    reg15_0_ = _e11.y;
    count = _e11.x;
    bool loop_init = true;
    [loop] while(true) {
        if (!loop_init) {
            int _e30 = count;
            count = asint(asuint(_e30) - asuint(int(1)));
            int _e33 = reg15_0_;
            reg15_0_ = asint(asuint(_e33) + asuint(_e11.z));
        }
        loop_init = false;
        int _e23 = count;
        if ((_e23 <= int(0))) {
            break;
        }
        float4 _e26 = reg0_0_;
        float4 _e27 = reg0_1_;
        reg0_0_ = (_e26 + _e27);
    }
    float4 _e37 = reg0_0_;
    float4 _e40 = driver[0];
    float4 _e43 = (_e40 * (_e37.w).xxxx);
    const VsOut vsout = ConstructVsOut((_e37 + float4(_e43.x, _e43.y, 0.0, 0.0)), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), (1.0).xxxx, ZeroValuefloat4(), ZeroValuefloat4());
    const VertexOutput_main vsout_1 = { vsout.texcoord0_, vsout.texcoord1_, vsout.texcoord2_, vsout.texcoord3_, vsout.texcoord4_, vsout.texcoord5_, vsout.texcoord6_, vsout.texcoord7_, vsout.color0_, vsout.color1_, vsout.fog0_, vsout.position };
    return vsout_1;
}
