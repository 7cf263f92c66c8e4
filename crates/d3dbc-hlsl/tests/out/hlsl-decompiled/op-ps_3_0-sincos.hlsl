// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

// sin: vkd3d-compiler 1.17 writes sin() in shader model 3 with an empty
// write mask; cos(x - pi/2) is the same value
float d3d_sin(float x)
{
    return cos(x - 1.57079637);
}

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
    float4 color0 : COLOR0;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    float4 r2;
    r2 = i.texcoord1;
    r0.xy = float2(cos(i.texcoord0.x), d3d_sin(i.texcoord0.x));
    r0.zw = (float2)1;
    o.color0 = r0;
    return o;
}
