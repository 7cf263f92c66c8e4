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
    float4 reg6_0_ = (float4)0;
    float4 reg6_1_ = (float4)0;
    int count = (int)0;
    int count_1 = (int)0;

    reg0_0_ = float4(0.5, 1.0, 2.0, 0.25);
    reg0_1_ = v0_;
    reg0_2_ = v1_;
    count = int4(int(2), int(0), int(0), int(0)).x;
    bool loop_init = true;
    [loop] while(true) {
        if (!loop_init) {
            int _e52 = count;
            count = asint(asuint(_e52) - asuint(int(1)));
        }
        loop_init = false;
        int _e18 = count;
        if ((_e18 <= int(0))) {
            break;
        }
        if (true) {
            count_1 = int4(int(2), int(0), int(0), int(0)).x;
            bool loop_init_1 = true;
            [loop] while(true) {
                if (!loop_init_1) {
                    int _e48 = count_1;
                    count_1 = asint(asuint(_e48) - asuint(int(1)));
                }
                loop_init_1 = false;
                int _e30 = count_1;
                if ((_e30 <= int(0))) {
                    break;
                }
                float4 _e33 = reg0_0_;
                if ((_e33.xxxx.x == float4(0.5, 1.0, 2.0, 0.25).xxxx.x)) {
                    float4 _e44 = reg0_0_;
                    float4 _e45 = reg0_1_;
                    reg0_0_ = (_e44 + _e45);
                }
            }
        }
    }
    float4 _e55 = reg0_0_;
    float4 _e56 = reg0_1_;
    float4 _e59 = driver[0];
    float4 _e62 = (_e59 * (_e55.w).xxxx);
    const VsOut vsout = ConstructVsOut((_e55 + float4(_e62.x, _e62.y, 0.0, 0.0)), _e56, ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), (1.0).xxxx, ZeroValuefloat4(), (1.0).xxxx);
    const VertexOutput_main vsout_1 = { vsout.texcoord0_, vsout.texcoord1_, vsout.texcoord2_, vsout.texcoord3_, vsout.texcoord4_, vsout.texcoord5_, vsout.texcoord6_, vsout.texcoord7_, vsout.color0_, vsout.color1_, vsout.fog0_, vsout.position };
    return vsout_1;
}
