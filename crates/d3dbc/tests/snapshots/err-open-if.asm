vs_2_0
defb b0, true
dcl_position v0
if b0
mov oPos, v0
