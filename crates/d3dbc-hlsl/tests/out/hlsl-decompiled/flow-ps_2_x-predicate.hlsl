// compile: -T ps_2_a -E main
// (ps_2_x is what the ps_2_a profile targets)
// Decompiled from ps_2_x bytecode by d3dbc-hlsl

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

static float4 r0;
static float4 r1;
static float4 r2;
static bool4 p0;
static PS_INPUT i;
static PS_OUTPUT o;

void l1()
{
}

PS_OUTPUT main(PS_INPUT input)
{
    i = input;
    o = (PS_OUTPUT)0;
    r0 = 0;
    r1 = 0;
    r2 = 0;
    p0 = false;
    r1 = i.texcoord0;
    r2 = i.texcoord1;
    r0 = float4(0.5, 1, 2, 0.25);
    p0 = r1 != r2;
    r0 = p0.xyzw ? r0 + r1 : r0;
    if (!p0.y)
        r0.y = r0.y * r2.y;
    if (p0.x)
    {
        r0.z = 0.5;
    }
    if (!p0.z)
        l1();
    for (int k0 = 0; k0 < 2; k0++)
    {
        if (p0.w)
            break;
    }
    o.color0 = r0;
    return o;
}
