vs_2_0
dcl_position v0
mov oPos, v0
call l1
ret
label l1
ret
label l1
ret
