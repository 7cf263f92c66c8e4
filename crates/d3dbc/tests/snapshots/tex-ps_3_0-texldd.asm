ps_3_0
dcl_texcoord v0
dcl_2d s0
dcl_cube s1
dcl_volume s2
dsx r1, v0
dsy r2, v0
texldd r0, v0, s0, r1, r2
mov oC0, r0
