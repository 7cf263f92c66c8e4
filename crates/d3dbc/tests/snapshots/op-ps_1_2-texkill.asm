ps_1_2
tex t0
texkill t1
mov r0, t0
