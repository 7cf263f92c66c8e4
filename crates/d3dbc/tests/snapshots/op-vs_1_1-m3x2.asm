vs_1_1
dcl_position v0
dcl_normal v1
def c0, 0.5, 1, 2, 0.25
mov r1, v0
mov r2, v1
m3x2 r0.xy, r1, c1
mov r0.zw, c0.y
mov oPos, r0
