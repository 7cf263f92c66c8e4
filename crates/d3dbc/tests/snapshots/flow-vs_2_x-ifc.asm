vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
mov r0, c0
if_gt r1.x, c0.y
add r0, r0, r1
endif
if_le r1.y, r2.x
mov r0.x, c0.w
endif
mov oPos, r0
