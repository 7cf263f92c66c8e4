vs_2_0
dcl_position v0
dcl_blendweight3 v1
add r0, v0, v1
mov oPos, r0
