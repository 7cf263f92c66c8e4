ps_2_x
def c0, 0.5, 1, 2, 0.25
dcl t0
dcl t1
dcl v0
dcl_2d s0
defi i1, 2, 0, 0, 0
mov r1, t0
mov r2, t1
mov r0, c0
setp_ne p0, r1, r2
(p0) add r0, r0, r1
(!p0.y) mul r0.y, r0.y, r2.y
if p0.x
mov r0.z, c0.x
endif
callnz l1, !p0.z
rep i1
breakp p0.w
endrep
mov oC0, r0
ret
label l1
ret
