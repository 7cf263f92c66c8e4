vs_2_0
dcl_position v0
rcp r0, v0
mov oPos, r0
