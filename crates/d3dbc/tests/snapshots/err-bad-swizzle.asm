vs_2_0
mov r0, r1.xq
