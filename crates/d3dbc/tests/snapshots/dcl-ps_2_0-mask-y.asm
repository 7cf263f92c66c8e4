ps_2_0
dcl t0.y
dcl v0.y
mov r0, c0
mov r0.y, t0
add r0, r0, v0
mov oC0, r0
