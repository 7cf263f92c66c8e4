vs_3_0
defi i0, 4, 2, 1, 0
dcl_position o0
dcl_position v0
mov r0, c0
loop aL, i0
add r0, r0, c[aL]
add r0, r0, c[aL + 5]
endloop
mov o0, r0
