#!/usr/bin/env python3
"""Writes the generated snapshot inputs (op-*, dcl-*, mod-*, flow-*, ps1-*, err-*).

Each case is a small shader written for this project from the instruction and register
pages of the D3D9 reference. Run from this directory; then bless the expected outputs:
    D3DBC_BLESS=1 cargo test -p d3dbc --test snapshots
"""
import os

VS = ["vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0"]
PS = ["ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_x", "ps_3_0"]

def major(v): return int(v[3])
def minor(v): return v[5]
def is_vs(v): return v.startswith("vs")

cases = {}

def case(name, text):
    assert name not in cases, name
    cases[name] = text.strip("\n") + "\n"

# ---------------------------------------------------------------------------------
# Per-version scaffolding: declarations, a temp set up from inputs, and the output write.

def prologue(v):
    if is_vs(v):
        if major(v) == 1:
            return ["dcl_position v0", "dcl_normal v1", "def c0, 0.5, 1, 2, 0.25",
                    "mov r1, v0", "mov r2, v1"]
        if major(v) == 2:
            return ["def c0, 0.5, 1, 2, 0.25", "dcl_position v0", "dcl_normal v1",
                    "mov r1, v0", "mov r2, v1"]
        return ["dcl_position o0", "dcl_texcoord o1", "def c0, 0.5, 1, 2, 0.25",
                "dcl_position v0", "dcl_normal v1", "mov r1, v0", "mov r2, v1"]
    if major(v) == 1:
        if v == "ps_1_4":
            return ["def c0, 0.5, 1, 0.25, 0", "texcrd r1.xyz, t0", "texld r2, t1",
                    "mov r1.w, c0.y"]
        return ["def c0, 0.5, 1, 0.25, 0", "tex t0", "tex t1", "mov r1, t0"]
    if major(v) == 2:
        return ["def c0, 0.5, 1, 2, 0.25", "dcl t0", "dcl t1", "dcl v0", "dcl_2d s0",
                "mov r1, t0", "mov r2, t1"]
    return ["def c0, 0.5, 1, 2, 0.25", "dcl_texcoord v0", "dcl_texcoord1 v1",
            "dcl_color v2", "dcl_2d s0", "mov r1, v0", "mov r2, v1"]

def epilogue(v, reg="r0"):
    if is_vs(v):
        if major(v) == 3:
            return [f"mov o0, {reg}", "mov o1, r1"]
        return [f"mov oPos, {reg}"]
    if major(v) == 1:
        return [] if reg == "r0" else [f"mov r0, {reg}"]
    return [f"mov oC0, {reg}"]

def is_decl(line):
    return line.split(" ")[0].split("_")[0] in ("def", "defi", "defb", "dcl")

def shader(v, body, reg="r0", pro=True):
    lines = (prologue(v) if pro else []) + body + epilogue(v, reg)
    # declarations precede the first executable instruction
    decls = [l for l in lines if is_decl(l)]
    rest = [l for l in lines if not is_decl(l)]
    return "\n".join([v] + decls + rest)

# ---------------------------------------------------------------------------------
# Every opcode of every version (arithmetic forms), one case each.

def arith_body(v, op):
    sm1ps = not is_vs(v) and major(v) == 1
    s2 = "r2" if not sm1ps or v == "ps_1_4" else "t1"
    c = "c0"
    table = {
        "mov": [f"mov r0, r1"],
        "add": [f"add r0, r1, {s2}"],
        "sub": [f"sub r0, r1, {s2}"],
        "mul": [f"mul r0, r1, {c}"],
        "mad": [f"mad r0, r1, {c}, {s2}"],
        "dp3": [f"dp3 r0, r1, {s2}"],
        "dp4": [f"dp4 r0, r1, {s2}"],
        "lrp": [f"lrp r0, {c}, r1, {s2}"],
        "cnd": [f"cnd r0, r1.a, r1, {s2}"] if v != "ps_1_4" else [f"cnd r0, r1, r1, {s2}"],
        "cmp": [f"cmp r0, r1, {c}, {s2}"],
        "nop": ["nop", "mov r0, r1"],
        "rcp": ["rcp r0, r1.x"] if major(v) > 1 else ["rcp r0, r1.w"],
        "rsq": ["rsq r0, r1.x"] if major(v) > 1 else ["rsq r0, r1.w"],
        "min": [f"min r0, r1, {s2}"],
        "max": [f"max r0, r1, {s2}"],
        "slt": [f"slt r0, r1, {s2}"],
        "sge": [f"sge r0, r1, {s2}"],
        "exp": ["exp r0, r1.x"] if major(v) > 1 else ["exp r0, r1.w"],
        "log": ["log r0, r1.x"] if major(v) > 1 else ["log r0, r1.w"],
        "expp": ["expp r0, r1.x"] if major(v) > 1 else ["expp r0, r1.w"],
        "logp": ["logp r0, r1.x"] if major(v) > 1 else ["logp r0, r1.w"],
        "lit": ["lit r0, r1"],
        "dst": ["dst r0, r1, r2"],
        "frc": ["frc r0, r1"],
        "m4x4": ["m4x4 r0, r1, c1"],
        "m4x3": ["m4x3 r0.xyz, r1, c1", "mov r0.w, c0.y"],
        "m3x4": ["m3x4 r0, r1, c1"],
        "m3x3": ["m3x3 r0.xyz, r1, c1", "mov r0.w, c0.y"],
        "m3x2": ["m3x2 r0.xy, r1, c1", "mov r0.zw, c0.y"],
        "pow": ["pow r0, r1.x, c0.y"],
        "crs": ["crs r0.xyz, r1, r2", "mov r0.w, c0.y"],
        "sgn": ["sgn r0, r1, r3, r4"],
        "abs": ["abs r0, r1"],
        "nrm": ["nrm r0.xyz, r1", "mov r0.w, c0.y"],
        "sincos": (["sincos r0.xy, r1.x", "mov r0.zw, c0.y"] if major(v) == 3
                   else ["def c1, -1.55009923e-006, -2.17013894e-005, 0.00260416674, 0.00026041668",
                         "def c2, -0.020833334, -0.125, 1, 0.5",
                         "sincos r0.xy, r1.x, c1, c2", "mov r0.zw, c0.y"]),
        "mova": ["mova a0.x, r1.x", "mov r0, c[a0.x + 1]"],
        "bem": ["bem r0.xy, r1, r2", "mov r0.zw, c0.y"],
        "dp2add": ["dp2add r0, r1, r2, c0.x"],
        "dsx": ["dsx r0, r1"],
        "dsy": ["dsy r0, r1"],
        "setp": ["setp_gt p0, r1, r2", "(p0) mov r0, r1", "(!p0.x) mov r0.x, c0.y"],
        "texkill": ["texkill r1", "mov r0, r1"] if major(v) > 1 or v == "ps_1_4"
                   else ["texkill t1", "mov r0, r1"],
    }
    return table.get(op)

ARITH_OPS = {
    # name: (vs versions, ps versions) the op exists in
    "nop": (VS, PS), "mov": (VS, PS), "add": (VS, PS), "sub": (VS, PS), "mad": (VS, PS),
    "mul": (VS, PS), "dp3": (VS, PS), "dp4": (VS, PS[1:]),
    "rcp": (VS, PS[4:]), "rsq": (VS, PS[4:]), "min": (VS, PS[4:]), "max": (VS, PS[4:]),
    "slt": (VS, []), "sge": (VS, []), "exp": (VS, PS[4:]), "log": (VS, PS[4:]),
    "expp": (VS, []), "logp": (VS, []), "lit": (VS, []), "dst": (VS, []),
    "lrp": (VS[1:], PS), "frc": (VS, PS[4:]),
    "m4x4": (VS, PS[4:]), "m4x3": (VS, PS[4:]), "m3x4": (VS, PS[4:]), "m3x3": (VS, PS[4:]),
    "m3x2": (VS, PS[4:]), "pow": (VS[1:], PS[4:]), "crs": (VS[1:], PS[4:]),
    "sgn": (VS[1:], []), "abs": (VS[1:], PS[4:]), "nrm": (VS[1:], PS[4:]),
    "sincos": (VS[1:], PS[4:]), "mova": (VS[1:], []),
    "cnd": ([], PS[:4]), "cmp": ([], PS[2:]), "bem": ([], ["ps_1_4"]),
    "dp2add": ([], PS[4:]), "dsx": ([], PS[5:]), "dsy": ([], PS[5:]),
    "setp": (VS[2:], PS[5:]), "texkill": ([], PS),
}

PS1_TEXKILL = {
    "ps_1_1": "ps_1_1\ntex t0\ntexkill t1\nmov r0, t0",
    "ps_1_2": "ps_1_2\ntex t0\ntexkill t1\nmov r0, t0",
    "ps_1_3": "ps_1_3\ntex t0\ntexkill t1\nmov r0, t0",
    "ps_1_4": "ps_1_4\ntexld r0, t0\ntexkill t1\nmov r0, r0",
}
for op, (vss, pss) in ARITH_OPS.items():
    for v in vss + pss:
        if op == "texkill" and v in PS1_TEXKILL:
            case(f"op-{v}-{op}", PS1_TEXKILL[v])
            continue
        body = arith_body(v, op)
        if op == "sgn":
            body = ["mov r3, c0", "mov r4, c0"] + body
        case(f"op-{v}-{op}", shader(v, body))
    # and one version where the op does not exist (an error case), if any
    missing = [v for v in VS + PS if v not in vss + pss]
    if missing:
        v = missing[-1]
        case(f"op-{v}-{op}-illegal", shader(v, arith_body(v, op) or [f"{op} r0, r1"]))

# Texture instructions per version.
TEX = {
    "ps_1_1": ["tex t2", "texbem t3, t2"],
    "ps_1_2": ["tex t2", "texbeml t3, t2"],
    "ps_1_3": ["tex t2", "texreg2ar t3, t2"],
}
for v in PS[:3]:
    body = ["tex t0", "texreg2gb t1, t0"]
    case(f"tex-{v}-texreg2gb", "\n".join([v, "tex t0", "texreg2gb t1, t0", "mov r0, t1"]))
    case(f"tex-{v}-texcoord", "\n".join([v, "texcoord t0", "mov r0, t0"]))
    case(f"tex-{v}-texbem", "\n".join([v, "tex t0", "texbem t1, t0", "mov r0, t1"]))
    case(f"tex-{v}-texbeml", "\n".join([v, "tex t0", "texbeml t1, t0", "mov r0, t1"]))
    case(f"tex-{v}-texreg2ar", "\n".join([v, "tex t0", "texreg2ar t1, t0", "mov r0, t1"]))
    case(f"tex-{v}-texm3x2", "\n".join([v, "tex t0", "texm3x2pad t1, t0", "texm3x2tex t2, t0", "mov r0, t2"]))
    case(f"tex-{v}-texm3x3tex", "\n".join([v, "tex t0", "texm3x3pad t1, t0", "texm3x3pad t2, t0", "texm3x3tex t3, t0", "mov r0, t3"]))
    case(f"tex-{v}-texm3x3spec", "\n".join([v, "def c0, 0, 0, 1, 0", "tex t0", "texm3x3pad t1, t0", "texm3x3pad t2, t0", "texm3x3spec t3, t0, c0", "mov r0, t3"]))
    case(f"tex-{v}-texm3x3vspec", "\n".join([v, "tex t0", "texm3x3pad t1, t0", "texm3x3pad t2, t0", "texm3x3vspec t3, t0", "mov r0, t3"]))
    if v != "ps_1_1":
        case(f"tex-{v}-texreg2rgb", "\n".join([v, "tex t0", "texreg2rgb t1, t0", "mov r0, t1"]))
        case(f"tex-{v}-texdp3tex", "\n".join([v, "tex t0", "texdp3tex t1, t0", "mov r0, t1"]))
        case(f"tex-{v}-texdp3", "\n".join([v, "tex t0", "texdp3 t1, t0", "mov r0, t1"]))
        case(f"tex-{v}-texm3x3", "\n".join([v, "tex t0", "texm3x3pad t1, t0", "texm3x3pad t2, t0", "texm3x3 t3, t0", "mov r0, t3"]))
    if v == "ps_1_3":
        case(f"tex-{v}-texm3x2depth", "\n".join([v, "tex t0", "texm3x2pad t1, t0", "texm3x2depth t2, t0", "mov r0, t2"]))
case("tex-ps_1_4-phase", "ps_1_4\ntexcrd r0.xyz, t0\ntexld r1, t1\nphase\ntexld r2, r0\ntexdepth r5\nmul r0, r1, r2")
case("tex-ps_1_4-texld-modifiers", "ps_1_4\ntexld r0, t0_dz\ntexld r1, t1_dw.xyw\ntexcrd r2.xy, t2_dz.xyz\nmul r0, r0, r1")
for v in ["ps_2_0", "ps_2_x", "ps_3_0"]:
    inp = "t0" if major(v) == 2 else "v0"
    d = ["dcl t0", "dcl_2d s0", "dcl_cube s1", "dcl_volume s2"] if major(v) == 2 else ["dcl_texcoord v0", "dcl_2d s0", "dcl_cube s1", "dcl_volume s2"]
    case(f"tex-{v}-texld", "\n".join([v] + d + [f"texld r0, {inp}, s0", f"texldp r1, {inp}, s1", f"texldb r2, {inp}, s2", "add r0, r0, r1", "add r0, r0, r2", "mov oC0, r0"]))
    if v != "ps_2_0":
        case(f"tex-{v}-texldd", "\n".join([v] + d + [f"dsx r1, {inp}", f"dsy r2, {inp}", f"texldd r0, {inp}, s0, r1, r2", "mov oC0, r0"]))
    if v == "ps_3_0":
        case(f"tex-{v}-texldl", "\n".join([v] + d + ["mov r1, v0", "texldl r0, r1, s0", "mov oC0, r0"]))
case("tex-vs_3_0-texldl", "vs_3_0\ndcl_position o0\ndcl_position v0\ndcl_2d s0\nmov r0, v0\ntexldl r1, r0, s0\nadd o0, r1, v0")

# ---------------------------------------------------------------------------------
# Declarations: every usage and index form, outputs, samplers, misc registers.

USAGES = ["position", "blendweight", "blendindices", "normal", "psize", "texcoord",
          "tangent", "binormal", "tessfactor", "positiont", "color", "fog", "depth", "sample"]
for u in USAGES:
    for v in ["vs_1_1", "vs_2_0", "vs_3_0"]:
        pre = ["dcl_position o0"] if v == "vs_3_0" else []
        out = "mov o0, v0" if v == "vs_3_0" else "mov oPos, v0"
        case(f"dcl-{v}-in-{u}", "\n".join([v] + pre + ["dcl_position v0", f"dcl_{u}3 v1", "add r0, v0, v1", out.replace("v0", "r0")]))
    case(f"dcl-vs_3_0-out-{u}", "\n".join(["vs_3_0", "dcl_position o0", f"dcl_{u}2 o1", "dcl_position v0", "mov o0, v0", "mov o1, v0"]))
    case(f"dcl-ps_3_0-in-{u}", "\n".join(["ps_3_0", f"dcl_{u}1 v0", "mov oC0, v0"]))
for mask in ["x", "xy", "xyz", "xyzw", "y", "zw", "xw"]:
    case(f"dcl-ps_2_0-mask-{mask}", f"ps_2_0\ndcl t0.{mask}\ndcl v0.{mask}\nmov r0, c0\nmov r0.{mask}, t0\nadd r0, r0, v0\nmov oC0, r0")
    case(f"dcl-vs_3_0-outmask-{mask}", f"vs_3_0\ndcl_position o0\ndcl_texcoord o1.{mask}\ndcl_position v0\nmov o0, v0\nmov o1.{mask}, v0")
for st in ["2d", "cube", "volume"]:
    for v in ["ps_2_0", "ps_2_x", "ps_3_0"]:
        inp = "t0" if major(v) == 2 else "v0"
        dcl = "dcl t0" if major(v) == 2 else "dcl_texcoord v0"
        case(f"dcl-{v}-sampler-{st}", f"{v}\n{dcl}\ndcl_{st} s3\ntexld r0, {inp}, s3\nmov oC0, r0")
    case(f"dcl-vs_3_0-sampler-{st}", f"vs_3_0\ndcl_position o0\ndcl_position v0\ndcl_{st} s1\ntexldl r0, v0, s1\nmov o0, r0")
case("dcl-ps_3_0-vpos-vface", "ps_3_0\ndcl vPos.xy\ndcl vFace\nmov r0.xy, vPos\nmov r0.zw, vFace.x\nmov oC0, r0")
case("dcl-ps_3_0-centroid-pp", "ps_3_0\ndcl_texcoord0_centroid v0\ndcl_texcoord1_pp v1.xy\ndcl_color_centroid_pp v2\nadd r0, v0, v1.xyxy\nadd oC0, r0, v2")
case("dcl-ps_2_0-centroid-pp", "ps_2_0\ndcl_centroid t0\ndcl_pp t1.xy\ndcl_centroid v0\nadd r0, t0, t1\nadd oC0, r0, v0")
case("dcl-vs_3_0-split-output", "vs_3_0\ndcl_position o0\ndcl_texcoord0 o1.xy\ndcl_texcoord1 o1.zw\ndcl_position v0\nmov o0, v0\nmov o1, v0")
case("dcl-vs_2_0-defi-defb", "vs_2_0\ndefi i0, 4, 0, 1, 0\ndefb b0, true\ndefb b1, false\ndcl_position v0\nmov oPos, v0")
case("dcl-def-special-values", "vs_2_0\ndef c0, 1.#INF, -1.#INF, 1.#QNAN, -1.#IND\ndef c1, 1e-38, 3.40282347e+038, -0, 0.1\ndef c2, 123456789, 0.333333343, 1e+010, -1e-010\ndcl_position v0\nmov oPos, v0")

# ---------------------------------------------------------------------------------
# Modifiers: source and result modifiers per version, swizzles, masks.

for v in ["ps_1_1", "ps_1_3", "ps_1_4"]:
    src = "r1" if v != "ps_1_4" else "r1"
    base = prologue(v)
    for m in ["_bias", "_bx2", "_x2"]:
        case(f"mod-{v}-src{m}", shader(v, [f"add r0, r1{m}, c0"]))
    for m in ["-r1", "1-r1", "-r1_bias", "-r1_bx2"]:
        tag = m.replace("-", "neg").replace("1neg", "comp").replace("_", "-")
        case(f"mod-{v}-src-{tag}", shader(v, [f"add r0, {m}, c0"]))
    for m in ["_x2", "_x4", "_x8", "_d2", "_d4", "_d8", "_sat", "_x2_sat"]:
        case(f"mod-{v}-dst{m}", shader(v, [f"mul{m} r0, r1, c0"]))
    for sw in [".a", ".b", ".rgb"] if v != "ps_1_4" else [".r", ".g", ".b", ".a"]:
        case(f"mod-{v}-swizzle{sw}", shader(v, [f"mov r0, r1{sw}"]))
    case(f"mod-{v}-coissue", shader(v, ["mul r0.rgb, r1, c0", "+ add r0.a, r1, c0"]))
    case(f"mod-{v}-mask-rgb-a", shader(v, ["mov r0.rgb, r1", "mov r0.a, c0"]))
for v in ["vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_2_0", "ps_2_x", "ps_3_0"]:
    case(f"mod-{v}-neg-swizzle", shader(v, ["add r0, -r1.yzwx, c0.wzyx"]))
    case(f"mod-{v}-replicate", shader(v, ["mul r0, r1.y, c0.w"]))
    case(f"mod-{v}-partial-swizzle", shader(v, ["mov r0, r1.xy", "add r0, r0, r2.xyz"]))
    case(f"mod-{v}-masks", shader(v, ["mov r0.x, r1", "mov r0.yz, r2", "mov r0.w, c0"]))
    case(f"mod-{v}-sat", shader(v, ["add_sat r0, r1, c0"]))
    case(f"mod-{v}-pp", shader(v, ["add_pp r0, r1, c0"]))
    case(f"mod-{v}-abs", shader(v, ["add r0, r1_abs, -c0_abs"]))
    case(f"mod-{v}-x2", shader(v, ["add_x2 r0, r1, c0"]))
    case(f"mod-{v}-rel-const", shader(v, (["mova a0.x, r1.x"] if major(v) >= 2 and is_vs(v) else ["mov a0.x, r1.x"] if is_vs(v) else []) + ["mov r0, c[a0.x + 3]" if is_vs(v) else "mov r0, c[aL + 3]"]))
case("mod-ps_3_0-input-rel", "ps_3_0\ndefi i0, 3, 0, 1, 0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_texcoord2 v2\nmov r0, c0\nloop aL, i0\nadd r0, r0, v[aL]\nendloop\nmov oC0, r0")
case("mod-vs_3_0-output-rel", "vs_3_0\ndefi i0, 2, 0, 1, 0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\ndcl_position v0\nmov o0, v0\nmova a0.x, c0.x\nmov o[a0.x + 1], v0\nloop aL, i0\nmov o[aL + 1], v0\nendloop")
case("mod-vs_2_x-rel-swizzles", "vs_2_x\ndcl_position v0\nmova a0, v0\nadd r0, c[a0.y + 2], c[a0.w + 10]\nmov oPos, r0")

# ---------------------------------------------------------------------------------
# Flow control.

for v in ["vs_2_0", "vs_2_x", "vs_3_0", "ps_2_x", "ps_3_0"]:
    pro = prologue(v)
    loops = v not in ["ps_2_x"]
    if loops:
        case(f"flow-{v}-loop", shader(v, ["defi i0, 4, 0, 1, 0", "mov r0, c0", "loop aL, i0", "add r0, r0, r1", "endloop"]))
    case(f"flow-{v}-rep", shader(v, ["defi i1, 3, 0, 0, 0", "mov r0, c0", "rep i1", "add r0, r0, r1", "endrep"]))
    case(f"flow-{v}-if-bool", shader(v, ["defb b0, true", "mov r0, c0", "if b0", "add r0, r0, r1", "else", "mul r0, r0, r1", "endif"]))
    case(f"flow-{v}-call", shader(v, ["mov r0, c0", "call l1", "callnz l2, b2"]) + "\nret\nlabel l1\nadd r0, r0, r1\nret\nlabel l2\nmul r0, r0, r1\nret")
    if v != "vs_2_0":
        case(f"flow-{v}-ifc", shader(v, ["mov r0, c0", "if_gt r1.x, c0.y", "add r0, r0, r1", "endif", "if_le r1.y, r2.x", "mov r0.x, c0.w", "endif"]))
        case(f"flow-{v}-break", shader(v, ["defi i1, 3, 0, 0, 0", "mov r0, c0", "rep i1", "add r0, r0, r1", "break_ge r0.x, c0.z", "breakp p0.x" if False else "nop", "if_lt r0.y, c0.x", "break", "endif", "endrep"]))
        case(f"flow-{v}-predicate", shader(v, ["mov r0, c0", "setp_ne p0, r1, r2", "(p0) add r0, r0, r1", "(!p0.y) mul r0.y, r0.y, r2.y", "if p0.x", "mov r0.z, c0.x", "endif", "callnz l1, !p0.z", "defi i1, 2, 0, 0, 0", "rep i1", "breakp p0.w", "endrep"]) + "\nret\nlabel l1\nret")
        case(f"flow-{v}-nested", shader(v, ["defi i1, 2, 0, 0, 0", "defb b0, true", "mov r0, c0", "rep i1", "if b0", "rep i1", "if_eq r0.x, c0.x", "add r0, r0, r1", "endif", "endrep", "endif", "endrep"]))
case("flow-vs_3_0-loop-rel", "vs_3_0\ndefi i0, 4, 2, 1, 0\ndcl_position o0\ndcl_position v0\nmov r0, c0\nloop aL, i0\nadd r0, r0, c[aL]\nadd r0, r0, c[aL + 5]\nendloop\nmov o0, r0")
case("flow-vs_2_0-sw", "vs_2_sw\ndcl_position v0\ndefb b0, true\nmov r0, c3000\nif b0\nadd r0, r0, v0\nendif\nmov oPos, r0")
case("flow-ps_3_0-texkill-in-if", "ps_3_0\ndcl_texcoord v0\nif_lt v0.x, c0.x\ntexkill v0\nendif\nmov oC0, v0")

# ---------------------------------------------------------------------------------
# Error cases: assembler errors and validator rules.

ERRORS = {
    "unknown-opcode": "vs_2_0\nfoo r0, r1\n",
    "bad-register": "ps_2_0\nmov r0, q0\n",
    "too-many-operands": "vs_1_1\nmov r0, r1, r2\n",
    "two-versions": "vs_1_1\nvs_2_0\nmov oPos, v0\n",
    "missing-version": "mov r0, r1\n",
    "bad-swizzle": "vs_2_0\nmov r0, r1.xq\n",
    "bad-mask": "vs_2_0\nmov r0.yx, r1\n",
    "temp-out-of-range": "ps_2_0\nmov r40, c0\n",
    "read-before-write": "ps_2_0\nmov oC0, r7\n",
    "write-constant": "vs_2_0\ndcl_position v0\nmov c0, v0\n",
    "write-input": "vs_2_0\ndcl_position v0\nmov v0, c0\nmov oPos, v0\n",
    "undeclared-input": "vs_2_0\nmov oPos, v0\n",
    "undeclared-sampler": "ps_2_0\ndcl t0\ntexld r0, t0, s0\nmov oC0, r0\n",
    "undeclared-vpos": "ps_3_0\nmov r0, vPos.xyxy\nmov oC0, r0\n",
    "undeclared-vface": "ps_3_0\ncmp oC0, vFace.x, c0, c1\n",
    "undeclared-output": "vs_3_0\ndcl_position v0\nmov o0, v0\n",
    "dcl-after-instruction": "vs_2_0\ndcl_position v0\nmov oPos, v0\ndcl_normal v1\n",
    "duplicate-dcl": "vs_2_0\ndcl_position v0\ndcl_position v0\nmov oPos, v0\n",
    "endif-without-if": "vs_2_0\ndcl_position v0\nendif\nmov oPos, v0\n",
    "open-if": "vs_2_0\ndefb b0, true\ndcl_position v0\nif b0\nmov oPos, v0\n",
    "break-outside-loop": "vs_2_x\ndcl_position v0\nbreak\nmov oPos, v0\n",
    "loop-nesting": "vs_2_0\ndefi i0, 2, 0, 1, 0\ndcl_position v0\nloop aL, i0\nloop aL, i0\nendloop\nendloop\nmov oPos, v0\n",
    "al-outside-loop": "vs_3_0\ndcl_position o0\ndcl_position v0\nmov o0, c[aL]\n",
    "missing-replicate": "vs_2_0\ndcl_position v0\nrcp r0, v0\nmov oPos, r0\n",
    "sincos-mask": "vs_3_0\ndcl_position o0\ndcl_position v0\nsincos r0, v0.x\nmov o0, r0\n",
    "matrix-swizzle": "vs_2_0\ndcl_position v0\nm4x4 oPos, v0, c0.yzwx\n",
    "nrm-dst-not-temp": "vs_2_0\ndcl_position v0\nnrm oPos, v0\n",
    "predicate-ps_2_0": "ps_2_0\ndcl t0\n(p0) mov r0, t0\nmov oC0, t0\n",
    "coissue-ps_2_0": "ps_2_0\ndcl t0\nmov r0.rgb, t0\n+ mov r0.a, t0\nmov oC0, r0\n",
    "ps_1_1-tex-after-arith": "ps_1_1\ntex t0\nmov r0, t0\ntex t1\n",
    "ps_1_1-texm3x2-broken": "ps_1_1\ntex t0\ntexm3x2pad t1, t0\nmov r0, t1\n",
    "ps_1_1-tex-src-order": "ps_1_1\ntex t1\ntexbem t0, t1\nmov r0, t0\n",
    "ps_1_1-too-many-arith": "ps_1_1\ndef c0, 1, 1, 1, 1\n" + "add r0, c0, c0\n" * 9,
    "ps_1_4-two-phases": "ps_1_4\ntexld r0, t0\nphase\ntexld r1, r0\nphase\nmov r0, r1\n",
    "ps_2_0-dependent-read": "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexld r0, r0, s0\ntexld r0, r0, s0\ntexld r0, r0, s0\ntexld r0, r0, s0\nmov oC0, r0\n",
    "ps_2_0-arbitrary-swizzle": "ps_2_0\ndcl t0\nmov r0, t0.yzxw\nmov oC0, r0\n",
    "vs_1_1-c256": "vs_1_1\ndcl_position v0\nmov oPos, c256\n",
    "texld-controls-ps_1_4": "ps_1_4\ntexld r0, t0\nmov r0, r0\n",
    "shift-ps_2_0": "ps_2_0\ndcl t0\nmul_x2 r0, t0, t0\nmov oC0, r0\n",
    "label-twice": "vs_2_0\ndcl_position v0\nmov oPos, v0\ncall l1\nret\nlabel l1\nret\nlabel l1\nret\n",
    "call-undefined": "vs_2_0\ndcl_position v0\ncall l3\nmov oPos, v0\n",
    "sampler-unknown-type": "ps_2_0\ndcl t0\ndcl s0\ntexld r0, t0, s0\nmov oC0, r0\n",
    "dcl-usage-index": "ps_2_0\ndcl_texcoord9 t0\nmov oC0, t0\n",
    "macro-include": "vs_1_1\n#include \"missing.h\"\nmov oPos, v0\n",
    "define-expands": "#define POS oPos\nvs_1_1\ndcl_position v0\nmov POS, v0\n",
    "comments-and-blank": "// leading comment\n\n  vs_2_0 // version\ndcl_position v0 ; asm comment\n\n\tmov oPos, v0 // done\n",
    "case-insensitive": "VS_2_0\nDCL_POSITION V0\nMOV OPOS, V0\n",
    "ifc-no-ps_2_0": "ps_2_0\ndcl t0\nif_gt t0.x, c0.x\nendif\nmov oC0, t0\n",
}
for name, text in ERRORS.items():
    case(f"err-{name}", text)

here = os.path.dirname(os.path.abspath(__file__))
for f in os.listdir(here):
    if f.endswith(".asm") and f[:-4] not in cases:
        pass  # hand-written cases are kept
for name, text in cases.items():
    with open(os.path.join(here, name + ".asm"), "w") as fh:
        fh.write(text)
print(len(cases), "cases written")
