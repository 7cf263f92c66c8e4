// compile: -T ps_2_a -E main
// (ps_2_x is what the ps_2_a profile targets)
// Decompiled from ps_2_x bytecode by d3dbc-hlsl

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
    o.color0 = i.texcoord0 - i.texcoord1;
    return o;
}
