// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

sampler2D s0 : register(s0);

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
    float4 r1;
    r0 = i.position;
    r1 = tex2Dlod(s0, r0);
    o.position = r1 + i.position;
    return o;
}
