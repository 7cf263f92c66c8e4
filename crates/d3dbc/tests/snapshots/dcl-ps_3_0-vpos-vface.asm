ps_3_0
dcl vPos.xy
dcl vFace
mov r0.xy, vPos
mov r0.zw, vFace.x
mov oC0, r0
