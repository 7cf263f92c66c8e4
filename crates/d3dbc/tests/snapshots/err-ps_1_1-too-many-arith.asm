ps_1_1
def c0, 1, 1, 1, 1
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
add r0, c0, c0
