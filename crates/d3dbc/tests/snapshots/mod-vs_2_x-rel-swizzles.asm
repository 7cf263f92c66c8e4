vs_2_x
dcl_position v0
mova a0, v0
add r0, c[a0.y + 2], c[a0.w + 10]
mov oPos, r0
