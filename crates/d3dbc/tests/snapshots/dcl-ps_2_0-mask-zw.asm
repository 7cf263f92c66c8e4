ps_2_0
dcl t0.zw
dcl v0.zw
mov r0, c0
mov r0.zw, t0
add r0, r0, v0
mov oC0, r0
