// compile: -T vs_2_a -E main
// (vs_2_x is what the vs_2_a profile targets)
// Decompiled from vs_2_x bytecode by d3dbc-hlsl

// mova: D3D9 rounds to the nearest integer, halves away from zero
float d3d_round(float x)
{
    return sign(x) * floor(abs(x) + 0.5);
}

float4 d3d_round(float4 x)
{
    return sign(x) * floor(abs(x) + 0.5);
}

float4 c[224] : register(c0); // the constant file, indexed at run time
// c0 hold the original's own def values: upload them with the rest

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
    float4 r2;
    float4 a0 = 0;
    r2 = i.normal;
    a0.x = d3d_round(i.position.x);
    o.position = c[a0.x + 1];
    return o;
}
