// leading comment

  vs_2_0 // version
dcl_position v0 ; asm comment

	mov oPos, v0 // done
