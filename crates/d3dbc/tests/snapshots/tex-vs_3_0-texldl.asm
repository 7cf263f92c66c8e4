vs_3_0
dcl_position o0
dcl_position v0
dcl_2d s0
mov r0, v0
texldl r1, r0, s0
add o0, r1, v0
