// compile: -T ps_2_0 -E main
// Decompiled from ps_2_0 bytecode by d3dbc-hlsl

float4 c0 : register(c0);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 color0 : COLOR0;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    r0 = c0;
    r0.xy = i.texcoord0.xy;
    o.color0 = r0 + i.color0;
    return o;
}
