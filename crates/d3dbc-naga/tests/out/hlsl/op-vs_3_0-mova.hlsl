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

int4 ZeroValueint4() {
    return (int4)0;
}

float4 ZeroValuefloat4() {
    return (float4)0;
}

int4 naga_f2i32(float4 value) {
    return int4(clamp(value, -2147483600.0, 2147483500.0));
}

VertexOutput_main main(float4 v0_ : LOC0, float4 v1_ : LOC1)
{
    int _e10 = asint(asuint((bool4(true, false, false, false) ? naga_f2i32(round(v0_.xxxx)) : ZeroValueint4()).x) + asuint(int(1)));
    uint _e11 = asuint(_e10);
    float4 _e18 = c[min(_e11, 255u)];
    float4 _e28 = ((_e10 == int(0)) ? float4(0.5, 1.0, 2.0, 0.25) : ((_e11 < 256u) ? _e18 : ZeroValuefloat4()));
    float4 _e31 = driver[0];
    float4 _e34 = (_e31 * (_e28.w).xxxx);
    const VsOut vsout = ConstructVsOut((_e28 + float4(_e34.x, _e34.y, 0.0, 0.0)), v0_, ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), ZeroValuefloat4(), (1.0).xxxx, ZeroValuefloat4(), (1.0).xxxx);
    const VertexOutput_main vsout_1 = { vsout.texcoord0_, vsout.texcoord1_, vsout.texcoord2_, vsout.texcoord3_, vsout.texcoord4_, vsout.texcoord5_, vsout.texcoord6_, vsout.texcoord7_, vsout.color0_, vsout.color1_, vsout.fog0_, vsout.position };
    return vsout_1;
}
