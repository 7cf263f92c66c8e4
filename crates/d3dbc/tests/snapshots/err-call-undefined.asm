vs_2_0
dcl_position v0
call l3
mov oPos, v0
