ps_3_0
def c0, 0.5, 1, 2, 0.25
dcl_texcoord v0
dcl_texcoord1 v1
dcl_color v2
dcl_2d s0
mov r1, v0
mov r2, v1
mov r0, r1.xy
add r0, r0, r2.xyz
mov oC0, r0
