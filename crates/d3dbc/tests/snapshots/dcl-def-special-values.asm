vs_2_0
def c0, 1.#INF, -1.#INF, 1.#QNAN, -1.#IND
def c1, 1e-38, 3.40282347e+038, -0, 0.1
def c2, 123456789, 0.333333343, 1e+010, -1e-010
dcl_position v0
mov oPos, v0
