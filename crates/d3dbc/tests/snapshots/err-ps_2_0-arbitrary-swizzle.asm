ps_2_0
dcl t0
mov r0, t0.yzxw
mov oC0, r0
