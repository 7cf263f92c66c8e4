// compile: -T vs_2_0 -E main
// (vs_1_1: vkd3d-compiler 1.17 writes vs_1_1 relative addressing with a vs_2_0 address token, which vs_1_1 readers reject; vs_2_0 computes the same, the index being floored as vs_1_1 does)
// Decompiled from vs_1_1 bytecode by d3dbc-hlsl

float4 c[224] : register(c0); // the constant file, indexed at run time
// c0 hold the original's own def values: upload them with the rest

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r2;
    float4 a0 = 0;
    r2 = i.normal;
    a0.x = floor(i.position.x);
    o.position = c[a0.x + 3];
    return o;
}
