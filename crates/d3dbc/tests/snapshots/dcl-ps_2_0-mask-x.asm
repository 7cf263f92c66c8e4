ps_2_0
dcl t0.x
dcl v0.x
mov r0, c0
mov r0.x, t0
add r0, r0, v0
mov oC0, r0
