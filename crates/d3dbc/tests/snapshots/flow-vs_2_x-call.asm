vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
mov r0, c0
call l1
callnz l2, b2
mov oPos, r0
ret
label l1
add r0, r0, r1
ret
label l2
mul r0, r0, r1
ret
