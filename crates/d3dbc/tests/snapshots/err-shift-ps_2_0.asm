ps_2_0
dcl t0
mul_x2 r0, t0, t0
mov oC0, r0
