ps_1_4
texcrd r0.xyz, t0
texld r1, t1
phase
texld r2, r0
texdepth r5
mul r0, r1, r2
