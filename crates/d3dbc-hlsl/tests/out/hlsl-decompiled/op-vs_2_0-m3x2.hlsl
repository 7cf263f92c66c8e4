// compile: -T vs_2_0 -E main
// Decompiled from vs_2_0 bytecode by d3dbc-hlsl

float4 c1 : register(c1);
float4 c2 : register(c2);

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
    r0.xy = float2(dot(i.position.xyz, c1.xyz), dot(i.position.xyz, c2.xyz));
    r0.zw = (float2)1;
    o.position = r0;
    return o;
}
