ps_3_0
dcl_fog1 v0
mov oC0, v0
