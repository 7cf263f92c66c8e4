ps_2_0
mov r0, q0
