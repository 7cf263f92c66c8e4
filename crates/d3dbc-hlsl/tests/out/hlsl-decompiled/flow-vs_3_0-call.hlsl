// compile: -T vs_3_0 -E main
// Decompiled from vs_3_0 bytecode by d3dbc-hlsl

bool b2 : register(b2);

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
    float4 texcoord0 : TEXCOORD0;
};

static float4 r0;
static float4 r1;
static float4 r2;
static VS_INPUT i;
static VS_OUTPUT o;

void l1()
{
    r0 = r0 + r1;
}

void l2()
{
    r0 = r0 * r1;
}

VS_OUTPUT main(VS_INPUT input)
{
    i = input;
    o = (VS_OUTPUT)0;
    r0 = 0;
    r1 = 0;
    r2 = 0;
    r1 = i.position;
    r2 = i.normal;
    r0 = float4(0.5, 1, 2, 0.25);
    l1();
    if (b2)
        l2();
    o.position = r0;
    o.texcoord0 = r1;
    return o;
}
