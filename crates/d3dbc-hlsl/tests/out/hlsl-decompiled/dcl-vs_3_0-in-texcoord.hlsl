// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

struct VS_INPUT
{
    float4 position : POSITION;
    float4 texcoord3 : TEXCOORD3;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r0;
    r0 = i.position + i.texcoord3;
    o.position = r0;
    return o;
}
