// A textured, tinted pixel shader: the bundled example for `d3dbc dis`.
// tests/examples.rs assembles this text, attaches the constant table below and checks
// that examples/textured.pso holds exactly those bytes (D3DBC_BLESS=1 rewrites it).
//   float4 Tint : register(c0);
//   sampler2D Diffuse : register(s0);
ps_2_0
def c1, 0.5, 1, 0, 0
dcl t0.xy
dcl v0
dcl_2d s0
texld r0, t0, s0
mul r0, r0, v0
mad r0.xyz, r0, c0, c1.x
mov oC0, r0
