vs_2_0
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
mov r1, v0
mov r2, v1
sincos r0.xy, r1.x, c1, c2
mov r0.zw, c0.y
mov oPos, r0
