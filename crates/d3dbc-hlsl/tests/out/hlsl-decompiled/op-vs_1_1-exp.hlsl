// compile: -T vs_1_1 -E main
// Decompiled from vs_1_1 bytecode by d3dbc-hlsl

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
    r2 = i.normal;
    o.position = (float4)exp2(i.position.w);
    return o;
}
