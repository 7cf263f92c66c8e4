ps_2_x
dcl t0
dcl_2d s0
dcl_cube s1
dcl_volume s2
dsx r1, t0
dsy r2, t0
texldd r0, t0, s0, r1, r2
mov oC0, r0
