vs_2_x
def c0, 0.5, 1, 2, 0.25
dcl_position v0
dcl_normal v1
defi i1, 2, 0, 0, 0
defb b0, true
mov r1, v0
mov r2, v1
mov r0, c0
rep i1
if b0
rep i1
if_eq r0.x, c0.x
add r0, r0, r1
endif
endrep
endif
endrep
mov oPos, r0
