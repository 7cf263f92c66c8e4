vs_2_0
dcl_position v0
m4x4 oPos, v0, c0.yzwx
