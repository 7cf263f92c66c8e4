ps_3_0
dcl_texcoord0_centroid v0
dcl_texcoord1_pp v1.xy
dcl_color_centroid_pp v2
add r0, v0, v1.xyxy
add oC0, r0, v2
