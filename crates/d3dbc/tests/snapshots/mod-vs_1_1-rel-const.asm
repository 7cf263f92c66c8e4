vs_1_1
dcl_position v0
dcl_normal v1
def c0, 0.5, 1, 2, 0.25
mov r1, v0
mov r2, v1
mov a0.x, r1.x
mov r0, c[a0.x + 3]
mov oPos, r0
