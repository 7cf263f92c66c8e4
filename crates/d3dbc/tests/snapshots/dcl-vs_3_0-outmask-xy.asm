vs_3_0
dcl_position o0
dcl_texcoord o1.xy
dcl_position v0
mov o0, v0
mov o1.xy, v0
