ps_2_x
def c0, 0.5, 1, 2, 0.25
dcl t0
dcl t1
dcl v0
dcl_2d s0
defi i1, 3, 0, 0, 0
mov r1, t0
mov r2, t1
mov r0, c0
rep i1
add r0, r0, r1
endrep
mov oC0, r0
