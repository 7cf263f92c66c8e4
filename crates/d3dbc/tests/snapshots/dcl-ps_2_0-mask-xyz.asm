ps_2_0
dcl t0.xyz
dcl v0.xyz
mov r0, c0
mov r0.xyz, t0
add r0, r0, v0
mov oC0, r0
