ps_1_1
tex t1
texbem t0, t1
mov r0, t0
