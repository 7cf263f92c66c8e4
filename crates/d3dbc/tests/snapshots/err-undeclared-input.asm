vs_2_0
mov oPos, v0
