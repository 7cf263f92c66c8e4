ps_2_0
def c0, 0.5, 1, 2, 0.25
dcl t0
dcl t1
dcl v0
dcl_2d s0
mov r1, t0
mov r2, t1
m3x4 r0, r1, c1
mov oC0, r0
