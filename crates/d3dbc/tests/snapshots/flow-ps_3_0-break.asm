ps_3_0
def c0, 0.5, 1, 2, 0.25
dcl_texcoord v0
dcl_texcoord1 v1
dcl_color v2
dcl_2d s0
defi i1, 3, 0, 0, 0
mov r1, v0
mov r2, v1
mov r0, c0
rep i1
add r0, r0, r1
break_ge r0.x, c0.z
nop
if_lt r0.y, c0.x
break
endif
endrep
mov oC0, r0
