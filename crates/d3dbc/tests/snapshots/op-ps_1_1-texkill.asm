ps_1_1
tex t0
texkill t1
mov r0, t0
