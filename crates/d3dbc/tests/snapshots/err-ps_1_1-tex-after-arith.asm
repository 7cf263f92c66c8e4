ps_1_1
tex t0
mov r0, t0
tex t1
