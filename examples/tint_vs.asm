// The vertex shader of examples/tint.fxo: positions pass through, texture
// coordinates go to oT0.
    vs_2_0
    dcl_position v0
    dcl_texcoord v1
    mov oPos, v0
    mov oT0, v1
