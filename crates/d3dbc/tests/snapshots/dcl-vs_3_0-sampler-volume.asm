vs_3_0
dcl_position o0
dcl_position v0
dcl_volume s1
texldl r0, v0, s1
mov o0, r0
