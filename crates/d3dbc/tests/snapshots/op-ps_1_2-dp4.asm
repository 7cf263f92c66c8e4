ps_1_2
def c0, 0.5, 1, 0.25, 0
tex t0
tex t1
mov r1, t0
dp4 r0, r1, t1
