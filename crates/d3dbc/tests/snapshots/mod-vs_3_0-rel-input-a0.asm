vs_3_0
dcl_position v0
dcl_texcoord v1
dcl_texcoord1 v2
dcl_position o0
mova a0.x, v0.x
mov r0, v1[a0.x]
mov o0, r0
