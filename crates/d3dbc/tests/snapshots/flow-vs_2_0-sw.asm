vs_2_sw
dcl_position v0
defb b0, true
mov r0, c3000
if b0
add r0, r0, v0
endif
mov oPos, r0
