// compile: -T ps_2_0 -E main
// Decompiled from ps_2_0 bytecode by d3dbc-hlsl

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
    o.color0 = i.texcoord0;
    return o;
}
