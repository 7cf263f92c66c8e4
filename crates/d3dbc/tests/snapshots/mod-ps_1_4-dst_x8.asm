ps_1_4
def c0, 0.5, 1, 0.25, 0
texcrd r1.xyz, t0
texld r2, t1
mov r1.w, c0.y
mul_x8 r0, r1, c0
