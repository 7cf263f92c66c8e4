vs_2_0
foo r0, r1
