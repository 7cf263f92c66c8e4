ps_3_0
dcl_texcoord v0
dcl_2d s0
dcl_cube s1
dcl_volume s2
mov r1, v0
texldl r0, r1, s0
mov oC0, r0
