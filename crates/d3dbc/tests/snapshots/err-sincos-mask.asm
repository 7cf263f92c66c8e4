vs_3_0
dcl_position o0
dcl_position v0
sincos r0, v0.x
mov o0, r0
