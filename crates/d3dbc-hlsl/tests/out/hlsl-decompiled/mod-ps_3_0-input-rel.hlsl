// compile: -T ps_3_0 -E main
// Decompiled from ps_3_0 bytecode by d3dbc-hlsl

float4 c0 : register(c0);

struct PS_INPUT
{
    float4 texcoord0 : TEXCOORD0;
    float4 texcoord1 : TEXCOORD1;
    float4 texcoord2 : TEXCOORD2;
};

struct PS_OUTPUT
{
    float4 color0 : COLOR0;
};

PS_OUTPUT main(PS_INPUT i)
{
    PS_OUTPUT o = (PS_OUTPUT)0;
    float4 r0;
    r0 = c0;
    for (int aL = 0, k0 = 0; k0 < 3; k0++, aL += 1)
    {
        r0 = r0 + (aL == 0 ? i.texcoord0 : aL == 1 ? i.texcoord1 : aL == 2 ? i.texcoord2 : (float4)0);
    }
    o.color0 = r0;
    return o;
}
