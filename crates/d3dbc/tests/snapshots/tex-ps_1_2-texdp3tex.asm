ps_1_2
tex t0
texdp3tex t1, t0
mov r0, t1
