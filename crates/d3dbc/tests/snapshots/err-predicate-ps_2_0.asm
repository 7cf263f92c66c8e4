ps_2_0
dcl t0
(p0) mov r0, t0
mov oC0, t0
