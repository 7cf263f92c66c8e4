vs_3_0
dcl_position v0
mov o0, v0
