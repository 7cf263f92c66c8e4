vs_2_0
dcl_position v0
mov c0, v0
