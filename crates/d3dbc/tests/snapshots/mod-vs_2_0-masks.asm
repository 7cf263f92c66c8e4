vs_2_0
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
mov r0.x, r1
mov r0.yz, r2
mov r0.w, c0
mov oPos, r0
