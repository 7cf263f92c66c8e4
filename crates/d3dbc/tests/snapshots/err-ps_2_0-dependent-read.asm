ps_2_0
dcl t0
dcl_2d s0
texld r0, t0, s0
texld r0, r0, s0
texld r0, r0, s0
texld r0, r0, s0
texld r0, r0, s0
mov oC0, r0
