#define POS oPos
vs_1_1
dcl_position v0
mov POS, v0
