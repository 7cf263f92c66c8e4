ps_3_0
dcl_blendindices1 v0
mov oC0, v0
