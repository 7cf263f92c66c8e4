vs_3_0
dcl_position o0
dcl_position v0
mov o0, c[aL]
