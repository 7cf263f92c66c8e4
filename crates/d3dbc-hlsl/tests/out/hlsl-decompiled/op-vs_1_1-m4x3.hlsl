// compile: -T vs_1_1 -E main
// Decompiled from vs_1_1 bytecode by d3dbc-hlsl

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
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r0;
    float4 r2;
    r2 = i.normal;
    r0.xyz = float3(dot(i.position, c1), dot(i.position, c2), dot(i.position, c3));
    r0.w = 1;
    o.position = r0;
    return o;
}
