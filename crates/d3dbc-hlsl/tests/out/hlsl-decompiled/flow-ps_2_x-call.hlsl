// compile: -T ps_2_a -E main
// (ps_2_x is what the ps_2_a profile targets)
// Decompiled from ps_2_x bytecode by d3dbc-hlsl

bool b2 : register(b2);

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
static PS_INPUT i;
static PS_OUTPUT o;

void l1()
{
    r0 = r0 + r1;
}

void l2()
{
    r0 = r0 * r1;
}

PS_OUTPUT main(PS_INPUT input)
{
    i = input;
    o = (PS_OUTPUT)0;
    r0 = 0;
    r1 = 0;
    r2 = 0;
    r1 = i.texcoord0;
    r2 = i.texcoord1;
    r0 = float4(0.5, 1, 2, 0.25);
    l1();
    if (b2)
        l2();
    o.color0 = r0;
    return o;
}
