vs_3_0
dcl_position o0
dcl_texcoord o1
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
add r0, r1, r2
mov o0, r0
mov o1, r1
