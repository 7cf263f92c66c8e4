vs_2_0
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
abs r0, r1
mov oPos, r0
