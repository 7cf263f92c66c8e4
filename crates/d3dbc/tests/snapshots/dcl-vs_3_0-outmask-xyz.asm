vs_3_0
dcl_position o0
dcl_texcoord o1.xyz
dcl_position v0
mov o0, v0
mov o1.xyz, v0
