ps_3_0
defi i0, 3, 0, 1, 0
dcl_texcoord0 v0
dcl_texcoord1 v1
dcl_texcoord2 v2
mov r0, c0
loop aL, i0
add r0, r0, v[aL]
endloop
mov oC0, r0
