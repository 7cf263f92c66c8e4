// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

float4 c0 : register(c0);
float4 c1 : register(c1);

struct PS_INPUT
{
    float vface : VFACE;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    o.color0 = i.vface.xxxx >= 0 ? c0 : c1;
    return o;
}
