// compile: -T vs_1_1 -E main
// Decompiled from vs_1_1 bytecode by d3dbc-hlsl

// logp (vs_1_x): exponent, mantissa and log2 of |x|
float4 d3d_logp(float x)
{
    float a = abs(x);
    float l = log2(a);
    float e = floor(l);
    return float4(e, a / exp2(e), l, 1);
}

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r0;
    float4 r2;
    r2 = i.normal;
    r0 = d3d_logp(i.position.w);
    o.position = r0;
    return o;
}
