ps_1_4
def c0, 0.5, 1, 0.25, 0
def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
texcrd r1.xyz, t0
texld r2, t1
mov r1.w, c0.y
sincos r0.xy, r1.x, c1, c2
mov r0.zw, c0.y
