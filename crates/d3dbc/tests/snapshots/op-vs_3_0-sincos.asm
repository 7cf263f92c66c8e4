vs_3_0
dcl_position o0
dcl_texcoord o1
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
mov r1, v0
mov r2, v1
sincos r0.xy, r1.x
mov r0.zw, c0.y
mov o0, r0
mov o1, r1
