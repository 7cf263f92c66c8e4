vs_1_1
mov r0, r1, r2
