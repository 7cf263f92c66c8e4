ps_1_1
def c0, 0.5, 1, 0.25, 0
tex t0
tex t1
mov r1, t0
nop
mov r0, r1
