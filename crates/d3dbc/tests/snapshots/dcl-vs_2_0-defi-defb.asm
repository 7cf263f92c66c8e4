vs_2_0
defi i0, 4, 0, 1, 0
defb b0, true
defb b1, false
dcl_position v0
mov oPos, v0
