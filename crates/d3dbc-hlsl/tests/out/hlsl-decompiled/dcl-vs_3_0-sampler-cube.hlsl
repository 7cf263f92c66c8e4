// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

samplerCUBE s1 : register(s1);

struct VS_INPUT
{
    float4 position : POSITION;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    o.position = texCUBElod(s1, i.position);
    return o;
}
