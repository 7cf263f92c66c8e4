ps_2_0
dcl t0
if_gt t0.x, c0.x
endif
mov oC0, t0
