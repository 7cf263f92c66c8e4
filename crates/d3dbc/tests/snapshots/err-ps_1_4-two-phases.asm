ps_1_4
texld r0, t0
phase
texld r1, r0
phase
mov r0, r1
