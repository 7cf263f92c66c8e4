// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

sampler2D s0 : register(s0);
samplerCUBE s1 : register(s1);
sampler3D s2 : register(s2);

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
    o.color0 = tex2D(s0, i.texcoord0.xy) + texCUBEproj(s1, i.texcoord0) + tex3Dbias(s2, i.texcoord0);
    return o;
}
