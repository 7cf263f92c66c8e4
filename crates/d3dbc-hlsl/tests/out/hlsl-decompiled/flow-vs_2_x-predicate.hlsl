// compile: -T vs_2_a -E main
// (vs_2_x is what the vs_2_a profile targets)
// Decompiled from vs_2_x bytecode by d3dbc-hlsl

struct VS_INPUT
{
    float4 position : POSITION;
    float4 normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 position : POSITION;
};

static float4 r0;
static float4 r1;
static float4 r2;
static bool4 p0;
static VS_INPUT i;
static VS_OUTPUT o;

void l1()
{
}

VS_OUTPUT main(VS_INPUT input)
{
    i = input;
    o = (VS_OUTPUT)0;
    r0 = 0;
    r1 = 0;
    r2 = 0;
    p0 = false;
    r1 = i.position;
    r2 = i.normal;
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
    o.position = r0;
    return o;
}
