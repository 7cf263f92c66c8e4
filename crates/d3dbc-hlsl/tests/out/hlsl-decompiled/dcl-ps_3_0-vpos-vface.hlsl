// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

struct PS_INPUT
{
    float2 vpos : VPOS;
    float vface : VFACE;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    r0.xy = i.vpos;
    r0.zw = i.vface.xx;
    o.color0 = r0;
    return o;
}
