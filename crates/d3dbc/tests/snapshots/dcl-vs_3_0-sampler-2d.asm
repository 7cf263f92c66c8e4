vs_3_0
dcl_position o0
dcl_position v0
dcl_2d s1
texldl r0, v0, s1
mov o0, r0
