// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

// sin: vkd3d-compiler 1.17 writes sin() in shader model 3 with an empty
// write mask; cos(x - pi/2) is the same value
float d3d_sin(float x)
{
    return cos(x - 1.57079637);
}

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
    float4 texcoord0 : TEXCOORD0;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r0;
    float4 r1;
    float4 r2;
    r1 = i.position;
    r2 = i.normal;
    r0.xy = float2(cos(r1.x), d3d_sin(r1.x));
    r0.zw = (float2)1;
    o.position = r0;
    o.texcoord0 = r1;
    return o;
}
