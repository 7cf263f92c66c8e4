// compile: -T vs_1_1 -E main
// Decompiled from vs_1_1 bytecode by d3dbc-hlsl

float4 c256 : register(c256);

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
    o.position = c256;
    return o;
}
