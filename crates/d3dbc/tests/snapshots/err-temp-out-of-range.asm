ps_2_0
mov r40, c0
