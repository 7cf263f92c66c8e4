ps_1_3
tex t0
texreg2rgb t1, t0
mov r0, t1
