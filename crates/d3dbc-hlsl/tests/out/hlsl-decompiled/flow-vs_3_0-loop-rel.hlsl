// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

float4 c[224] : register(c0); // the constant file, indexed at run time

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
    float4 r0;
    r0 = c[0];
    for (int aL = 2, k0 = 0; k0 < 4; k0++, aL += 1)
    {
        r0 = r0 + c[aL] + c[aL + 5];
    }
    o.position = r0;
    return o;
}
