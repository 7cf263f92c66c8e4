ps_2_x
dcl t0
dcl_cube s3
texld r0, t0, s3
mov oC0, r0
