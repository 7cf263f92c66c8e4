// compile: -T vs_3_0 -E main
// (vs_2_sw (software processing) has no HLSL profile; vs_3_0 computes the same)
// Decompiled from vs_2_sw bytecode by d3dbc-hlsl

float4 c3000 : register(c3000);

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
    r0 = c3000;
    if (true)
    {
        r0 = r0 + i.position;
    }
    o.position = r0;
    return o;
}
