// compile: -T vs_2_0 -E main
// Decompiled from vs_2_0 bytecode by d3dbc-hlsl

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
    float4 r0;
    float4 r2;
    r2 = i.normal;
    r0 = log2(abs(i.position.x));
    o.position = r0;
    return o;
}
