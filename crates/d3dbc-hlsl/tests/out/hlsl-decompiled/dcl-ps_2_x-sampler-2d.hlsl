// compile: -T ps_2_a -E main
// (ps_2_x is what the ps_2_a profile targets)
// Decompiled from ps_2_x bytecode by d3dbc-hlsl

sampler2D s3 : register(s3);

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
    o.color0 = tex2D(s3, i.texcoord0.xy);
    return o;
}
