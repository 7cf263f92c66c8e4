vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
setp_gt p0, r1, r2
(p0) mov r0, r1
(!p0.x) mov r0.x, c0.y
mov oPos, r0
