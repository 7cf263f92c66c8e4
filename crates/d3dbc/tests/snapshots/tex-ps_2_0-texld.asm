ps_2_0
dcl t0
dcl_2d s0
dcl_cube s1
dcl_volume s2
texld r0, t0, s0
texldp r1, t0, s1
texldb r2, t0, s2
add r0, r0, r1
add r0, r0, r2
mov oC0, r0
