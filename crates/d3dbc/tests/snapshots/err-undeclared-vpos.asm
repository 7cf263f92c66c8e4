ps_3_0
mov r0, vPos.xyxy
mov oC0, r0
