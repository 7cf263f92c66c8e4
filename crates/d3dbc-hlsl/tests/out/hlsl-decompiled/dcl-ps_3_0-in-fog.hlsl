// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

struct PS_INPUT
{
    float4 fog1 : FOG1;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    o.color0 = i.fog1;
    return o;
}
