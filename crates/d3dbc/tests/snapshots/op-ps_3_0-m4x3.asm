ps_3_0
def c0, 0.5, 1, 2, 0.25
dcl_texcoord v0
dcl_texcoord1 v1
dcl_color v2
dcl_2d s0
mov r1, v0
mov r2, v1
m4x3 r0.xyz, r1, c1
mov r0.w, c0.y
mov oC0, r0
