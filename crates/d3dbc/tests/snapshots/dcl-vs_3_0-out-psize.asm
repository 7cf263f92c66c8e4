vs_3_0
dcl_position o0
dcl_psize2 o1
dcl_position v0
mov o0, v0
mov o1, v0
