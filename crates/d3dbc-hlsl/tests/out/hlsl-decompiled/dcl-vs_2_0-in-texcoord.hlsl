// compile: -T vs_2_0 -E main
// Decompiled from vs_2_0 bytecode by d3dbc-hlsl

struct VS_INPUT
{
    float4 position : POSITION;
    float4 texcoord3 : TEXCOORD3;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    o.position = i.position + i.texcoord3;
    return o;
}
