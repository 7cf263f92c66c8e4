ps_2_0
mov oC0, r7
