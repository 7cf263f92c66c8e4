ps_2_x
dcl t0
dcl_2d s3
texld r0, t0, s3
mov oC0, r0
