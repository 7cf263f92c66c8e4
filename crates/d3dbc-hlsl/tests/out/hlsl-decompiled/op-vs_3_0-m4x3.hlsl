// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

float4 c1 : register(c1);
float4 c2 : register(c2);
float4 c3 : register(c3);

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
    r0.xyz = float3(dot(r1, c1), dot(r1, c2), dot(r1, c3));
    r0.w = 1;
    o.position = r0;
    o.texcoord0 = r1;
    return o;
}
