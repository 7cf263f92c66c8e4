vs_1_1
dcl_position v0
dcl_blendindices3 v1
add r0, v0, v1
mov oPos, r0
