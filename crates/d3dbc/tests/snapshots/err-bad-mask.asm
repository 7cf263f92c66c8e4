vs_2_0
mov r0.yx, r1
