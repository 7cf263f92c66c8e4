// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

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
    float4 r1;
    float4 r2;
    r1 = i.texcoord0;
    r2 = i.texcoord1;
    r0 = float4(0.5, 1, 2, 0.25);
    if (r1.x > 1)
    {
        r0 = r0 + r1;
    }
    if (r1.y <= r2.x)
    {
        r0.x = 0.25;
    }
    o.color0 = r0;
    return o;
}
