// compile: -T vs_2_0 -E main
// Decompiled from vs_2_0 bytecode by d3dbc-hlsl

// lit: D3D9's lighting coefficients (the power clamped to +-127.9961)
float4 d3d_lit(float4 s)
{
    float p = clamp(s.w, -127.9961, 127.9961);
    float spec = (s.x > 0 && s.y > 0) ? exp2(p * log2(s.y)) : 0;
    return float4(1, s.x > 0 ? s.x : 0, spec, 1);
}

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

VS_OUTPUT main(VS_INPUT i)
{
    VS_OUTPUT o = (VS_OUTPUT)0;
    float4 r0;
    float4 r2;
    r2 = i.normal;
    r0 = d3d_lit(i.position);
    o.position = r0;
    return o;
}
