vs_2_x
dcl_position v0
break
mov oPos, v0
