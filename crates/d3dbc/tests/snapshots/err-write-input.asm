vs_2_0
dcl_position v0
mov v0, c0
mov oPos, v0
