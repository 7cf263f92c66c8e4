ps_2_0
dcl t0.xyzw
dcl v0.xyzw
mov r0, c0
mov r0.xyzw, t0
add r0, r0, v0
mov oC0, r0
