// compile: -T ps_2_0 -E main
// Decompiled from ps_2_0 bytecode by d3dbc-hlsl

sampler3D s3 : register(s3);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    o.color0 = tex3D(s3, i.texcoord0.xyz);
    return o;
}
