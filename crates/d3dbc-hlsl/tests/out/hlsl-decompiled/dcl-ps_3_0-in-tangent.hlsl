// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

struct PS_INPUT
{
    float4 tangent1 : TANGENT1;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    o.color0 = i.tangent1;
    return o;
}
