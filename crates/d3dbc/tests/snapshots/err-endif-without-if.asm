vs_2_0
dcl_position v0
endif
mov oPos, v0
