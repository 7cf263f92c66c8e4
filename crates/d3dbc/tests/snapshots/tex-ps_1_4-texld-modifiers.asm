ps_1_4
texld r0, t0_dz
texld r1, t1_dw.xyw
texcrd r2.xy, t2_dz.xyz
mul r0, r0, r1
