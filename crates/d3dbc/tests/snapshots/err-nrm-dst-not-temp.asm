vs_2_0
dcl_position v0
nrm oPos, v0
