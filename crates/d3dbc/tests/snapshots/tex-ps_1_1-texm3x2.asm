ps_1_1
tex t0
texm3x2pad t1, t0
texm3x2tex t2, t0
mov r0, t2
