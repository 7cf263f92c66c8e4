vs_3_0
dcl_position o0
dcl_texcoord0 o1.xy
dcl_texcoord1 o1.zw
dcl_position v0
mov o0, v0
mov o1, v0
