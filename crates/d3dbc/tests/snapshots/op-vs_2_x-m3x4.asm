vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
m3x4 r0, r1, c1
mov oPos, r0
