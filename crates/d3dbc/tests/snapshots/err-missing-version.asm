mov r0, r1
