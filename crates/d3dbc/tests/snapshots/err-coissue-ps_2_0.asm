ps_2_0
dcl t0
mov r0.rgb, t0
+ mov r0.a, t0
mov oC0, r0
