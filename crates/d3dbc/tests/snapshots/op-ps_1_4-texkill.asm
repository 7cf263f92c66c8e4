ps_1_4
texld r0, t0
texkill t1
mov r0, r0
