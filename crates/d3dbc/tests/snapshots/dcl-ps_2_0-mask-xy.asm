ps_2_0
dcl t0.xy
dcl v0.xy
mov r0, c0
mov r0.xy, t0
add r0, r0, v0
mov oC0, r0
