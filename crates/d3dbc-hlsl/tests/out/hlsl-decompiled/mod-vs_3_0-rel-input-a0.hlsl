// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

// mova: D3D9 rounds to the nearest integer, halves away from zero
float d3d_round(float x)
{
    return sign(x) * floor(abs(x) + 0.5);
}

float4 d3d_round(float4 x)
{
    return sign(x) * floor(abs(x) + 0.5);
}

struct VS_INPUT
{
    float4 position : POSITION;
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 a0 = 0;
    a0.x = d3d_round(i.position.x);
    o.position = (a0.x + 1 == 0 ? i.position : a0.x + 1 == 1 ? i.texcoord0 : a0.x + 1 == 2 ? i.texcoord1 : (float4)0);
    return o;
}
