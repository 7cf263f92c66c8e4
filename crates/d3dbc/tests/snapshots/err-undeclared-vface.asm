ps_3_0
cmp oC0, vFace.x, c0, c1
