// compile: -T vs_2_a -E main
// (vs_2_x is what the vs_2_a profile targets)
// Decompiled from vs_2_x bytecode by d3dbc-hlsl

float4 c1 : register(c1);
float4 c2 : register(c2);
float4 c3 : register(c3);
float4 c4 : register(c4);

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
    o.position = float4(dot(i.position, c1), dot(i.position, c2), dot(i.position, c3), dot(i.position, c4));
    return o;
}
