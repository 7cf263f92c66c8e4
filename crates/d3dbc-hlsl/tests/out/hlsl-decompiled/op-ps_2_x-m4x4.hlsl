// compile: -T ps_2_a -E main
// (ps_2_x is what the ps_2_a profile targets)
// Decompiled from ps_2_x bytecode by d3dbc-hlsl

float4 c1 : register(c1);
float4 c2 : register(c2);
float4 c3 : register(c3);
float4 c4 : register(c4);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
    float4 color0 : COLOR0;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r2;
    r2 = i.texcoord1;
    o.color0 = float4(dot(i.texcoord0, c1), dot(i.texcoord0, c2), dot(i.texcoord0, c3), dot(i.texcoord0, c4));
    return o;
}
