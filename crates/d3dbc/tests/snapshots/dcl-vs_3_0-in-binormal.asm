vs_3_0
dcl_position o0
dcl_position v0
dcl_binormal3 v1
add r0, v0, v1
mov o0, r0
