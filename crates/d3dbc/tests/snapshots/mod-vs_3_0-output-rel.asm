vs_3_0
defi i0, 2, 0, 1, 0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_position v0
mov o0, v0
mova a0.x, c0.x
mov o[a0.x + 1], v0
loop aL, i0
mov o[aL + 1], v0
endloop
