// compile: -T ps_2_0 -E main
// (ps_1_2: vkd3d-compiler 1.17 emits no ps_1_x texture or min/max instructions; ps_2_0 computes the same with the ps_1_x rules written out)
// Decompiled from ps_1_2 bytecode by d3dbc-hlsl

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
sampler2D s3 : register(s3);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
    float4 texcoord2 : TEXCOORD2;
    float4 texcoord3 : TEXCOORD3;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    float4 t0 = i.texcoord0;
    float4 t1 = i.texcoord1;
    float4 t2 = i.texcoord2;
    float4 t3 = i.texcoord3;
    float4 m3 = 0;
    float3 e = 0;
    t0 = ps1x(tex2D(s0, (i.texcoord0).xy));
    m3.x = dot(i.texcoord1.xyz, t0.xyz);
    m3.y = dot(i.texcoord2.xyz, t0.xyz);
    m3.z = dot(i.texcoord3.xyz, t0.xyz);
    e = float3(0, 0, 1);
    m3.xyz = dot(m3.xyz, m3.xyz) != 0 ? 2 * (m3.xyz * dot(m3.xyz, e)) / dot(m3.xyz, m3.xyz) - e : -e;
    t3 = ps1x(tex2D(s3, (m3).xy));
    r0 = ps1x(t3);
    // ps_1_x: the colour output is r0, saturated
    o.color0 = saturate(r0);
    return o;
}
