// compile: -T ps_2_0 -E main
// (ps_1_3: vkd3d-compiler 1.17 emits no ps_1_x texture or min/max instructions; ps_2_0 computes the same with the ps_1_x rules written out)
// Decompiled from ps_1_3 bytecode by d3dbc-hlsl

// ps_1_x arithmetic: every result is held in [-8, 8]
float ps1x(float x)
{
    return clamp(x, -8, 8);
}
float2 ps1x(float2 x)
{
    return clamp(x, -8, 8);
}
float3 ps1x(float3 x)
{
    return clamp(x, -8, 8);
}
float4 ps1x(float4 x)
{
    return clamp(x, -8, 8);
}

sampler2D s0 : register(s0);
sampler2D s1 : register(s1);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    float4 r1;
    float4 t0 = i.texcoord0;
    float4 t1 = i.texcoord1;
    t0 = ps1x(tex2D(s0, (i.texcoord0).xy));
    t1 = ps1x(tex2D(s1, (i.texcoord1).xy));
    r1 = ps1x(t0);
    r0 = ps1x(dot(r1, t1));
    // ps_1_x: the colour output is r0, saturated
    o.color0 = saturate(r0);
    return o;
}
