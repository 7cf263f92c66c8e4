vs_2_0
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
defi i1, 3, 0, 0, 0
mov r1, v0
mov r2, v1
mov r0, c0
rep i1
add r0, r0, r1
endrep
mov oPos, r0
