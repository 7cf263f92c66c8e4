ps_1_1
tex t0
texreg2ar t1, t0
mov r0, t1
