ps_2_0
def c0, 0.5, 1, 2, 0.25
dcl t0
dcl t1
dcl v0
dcl_2d s0
def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
mov r1, t0
mov r2, t1
sincos r0.xy, r1.x, c1, c2
mov r0.zw, c0.y
mov oC0, r0
