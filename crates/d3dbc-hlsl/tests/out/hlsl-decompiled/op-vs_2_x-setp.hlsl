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
    float4 r0 = 0;
    float4 r1;
    bool4 p0 = false;
    r1 = i.position;
    p0 = r1 > i.normal;
    r0 = p0.xyzw ? r1 : r0;
    if (!p0.x)
        r0.x = 1;
    o.position = r0;
    return o;
}
