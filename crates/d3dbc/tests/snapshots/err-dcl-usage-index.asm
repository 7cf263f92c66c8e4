ps_2_0
dcl_texcoord9 t0
mov oC0, t0
