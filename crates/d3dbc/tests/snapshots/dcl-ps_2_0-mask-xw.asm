ps_2_0
dcl t0.xw
dcl v0.xw
mov r0, c0
mov r0.xw, t0
add r0, r0, v0
mov oC0, r0
