// compile: -T ps_2_0 -E main
// (ps_1_4: vkd3d-compiler 1.17 emits no ps_1_x texture or min/max instructions; ps_2_0 computes the same with the ps_1_x rules written out)
// Decompiled from ps_1_4 bytecode by d3dbc-hlsl

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

sampler2D s1 : register(s1);
sampler2D s2 : register(s2);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
    float depth : DEPTH;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0 = 0;
    float4 r1;
    float4 r2;
    float4 r5;
    r0.xyz = ps1x(i.texcoord0.xyz);
    r1 = ps1x(tex2D(s1, (i.texcoord1).xy));
    // phase: temporaries' alpha is not kept
    r0.w = 0;
    r1.w = 0;
    r2.w = 0;
    r5.w = 0;
    r2 = ps1x(tex2D(s2, (r0).xy));
    o.depth = r5.y == 0 ? 1 : r5.x / r5.y;
    r0 = ps1x(r1 * r2);
    // ps_1_x: the colour output is r0, saturated
    o.color0 = saturate(r0);
    return o;
}
