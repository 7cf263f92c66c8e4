ps_3_0
dcl_texcoord v0
if_lt v0.x, c0.x
texkill v0
endif
mov oC0, v0
