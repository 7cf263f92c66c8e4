// compile: -T vs_2_a -E main
// (vs_2_x is what the vs_2_a profile targets)
// Decompiled from vs_2_x bytecode by d3dbc-hlsl

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
    float4 r4;
    r2 = i.normal;
    r4 = float4(0.5, 1, 2, 0.25);
    r0 = sign(i.position);
    o.position = r0;
    return o;
}
