vs_1_1
vs_2_0
mov oPos, v0
