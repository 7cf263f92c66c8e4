ps_3_0
dcl_texcoord v0
dcl_2d s0
dcl_cube s1
dcl_volume s2
texld r0, v0, s0
texldp r1, v0, s1
texldb r2, v0, s2
add r0, r0, r1
add r0, r0, r2
mov oC0, r0
