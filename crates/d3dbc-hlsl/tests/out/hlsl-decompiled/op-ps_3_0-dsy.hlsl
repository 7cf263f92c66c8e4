// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

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
    float4 r0;
    float4 r2;
    r2 = i.texcoord1;
    r0 = ddy(i.texcoord0);
    o.color0 = r0;
    return o;
}
