ps_3_0
dcl_texcoord v0
dcl_cube s3
texld r0, v0, s3
mov oC0, r0
