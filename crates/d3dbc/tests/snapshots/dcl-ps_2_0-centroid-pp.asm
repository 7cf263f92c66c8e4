ps_2_0
dcl_centroid t0
dcl_pp t1.xy
dcl_centroid v0
add r0, t0, t1
add oC0, r0, v0
