vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
defi i0, 4, 0, 1, 0
mov r1, v0
mov r2, v1
mov r0, c0
loop aL, i0
add r0, r0, r1
endloop
mov oPos, r0
