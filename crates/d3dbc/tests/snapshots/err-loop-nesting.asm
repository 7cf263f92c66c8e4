vs_2_0
defi i0, 2, 0, 1, 0
dcl_position v0
loop aL, i0
loop aL, i0
endloop
endloop
mov oPos, v0
