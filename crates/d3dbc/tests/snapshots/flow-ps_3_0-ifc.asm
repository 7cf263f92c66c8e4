ps_3_0
def c0, 0.5, 1, 2, 0.25
dcl_texcoord v0
dcl_texcoord1 v1
dcl_color v2
dcl_2d s0
mov r1, v0
mov r2, v1
mov r0, c0
if_gt r1.x, c0.y
add r0, r0, r1
endif
if_le r1.y, r2.x
mov r0.x, c0.w
endif
mov oC0, r0
