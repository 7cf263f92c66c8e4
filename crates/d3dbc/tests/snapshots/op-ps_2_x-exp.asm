ps_2_x
def c0, 0.5, 1, 2, 0.25
dcl t0
dcl t1
dcl v0
dcl_2d s0
mov r1, t0
mov r2, t1
exp r0, r1.x
mov oC0, r0
