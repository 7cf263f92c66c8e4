ps_2_0
dcl t0
dcl s0
texld r0, t0, s0
mov oC0, r0
