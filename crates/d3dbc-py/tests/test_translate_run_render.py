"""``translate``, ``run`` and ``render`` against ``d3dbc translate``, ``run`` and
``render`` on corpus shaders: byte-identical translations, the same output values,
the same pixels as the command's PNG."""

import json
import struct
import zlib

import d3dbc
import numpy
import pytest

from conftest import run_cli


def valid_shaders(files, stride):
    out = []
    for name, data in sorted(files.items()):
        try:
            sh = d3dbc.Shader.from_bytes(data)
        except d3dbc.DecodeError:
            continue
        if not [f for f in sh.validate() if f.severity == "error"]:
            out.append((name, sh))
    return out[::stride]


TARGETS = {"spirv": "spv", "wgsl": "wgsl", "glsl": None, "msl": "metal", "hlsl": "hlsl"}


def test_translations_are_byte_identical(cli, corpus_files, tmp_path):
    d, files = corpus_files
    picked = valid_shaders(files, 12)
    assert len(picked) >= 30
    src = tmp_path / "src"
    src.mkdir()
    for name, sh in picked:
        (src / name).write_bytes(sh.to_bytes())
    for target, ext in TARGETS.items():
        out = tmp_path / target
        p = run_cli(cli, "translate", str(src), "--ext", "bin", "--target", target, "--out-dir", str(out))
        assert p.returncode == 0, p.stderr.decode()
        for name, sh in picked:
            got = sh.translate(target)
            e = ext or ("frag" if sh.is_pixel else "vert")
            want = (out / f"{name[:-4]}.{e}").read_bytes()
            if target == "spirv":
                assert isinstance(got, bytes) and got == want, (name, target)
            else:
                assert isinstance(got, str) and got.encode() == want, (name, target)
    # Through naga, and with options, as `--via naga` and `--options`.
    name, sh = picked[0]
    out = tmp_path / "naga.spv"
    run_cli(cli, "translate", str(src / name), "--target", "spirv", "--via", "naga", "-o", str(out))
    assert sh.translate("spirv", via="naga") == out.read_bytes()
    opts = {"semantics": {"fused_mad": True}}
    (tmp_path / "o.json").write_text(json.dumps(opts))
    out = tmp_path / "opt.wgsl"
    p = run_cli(cli, "translate", str(src / name), "--target", "wgsl", "--options", str(tmp_path / "o.json"), "-o", str(out))
    if p.returncode == 0:
        assert sh.translate("wgsl", **opts) == out.read_text()
    else:
        with pytest.raises(d3dbc.ArgumentError):
            sh.translate("wgsl", **opts)
    iface = tmp_path / "i.wgsl"
    run_cli(cli, "translate", str(src / name), "--target", "wgsl", "--interface", "-o", str(iface))
    assert sh.interface() == json.loads((tmp_path / "i.interface.json").read_text())


def test_translate_refuses_invalid_and_unknown():
    sh = d3dbc.assemble("ps_2_0\nmov oC0, r5\n", validate=False)
    with pytest.raises(d3dbc.ValidationError) as e:
        sh.translate("wgsl")
    assert e.value.findings[0].code == "E0204" and e.value.offset == 1
    with pytest.raises(d3dbc.ArgumentError):
        d3dbc.assemble("ps_2_0\nmov oC0, c0\n").translate("dxil")


def test_run_values_equal_the_command(cli, corpus_files, tmp_path):
    _, files = corpus_files
    picked = valid_shaders(files, 6)
    ran = 0
    for name, sh in picked:
        path = tmp_path / name
        path.write_bytes(sh.to_bytes())
        args = ["run", str(path), "--format", "json"]
        inputs, consts = {}, {}
        if sh.is_pixel and sh.version >= "ps_2_0":
            # ps_3_0 reads v0-v9; ps_2_x texture coordinates t0-t7.
            reg = "v0" if sh.version.startswith("ps_3") else "t0"
            inputs = {reg: (0.25, 0.75)}
            args += ["--input", f"{reg}=0.25,0.75"]
        consts = {"c1": (0.5, -2, 3)}
        args += ["--const", "c1=0.5,-2,3"]
        p = run_cli(cli, *args)
        try:
            out = sh.run(inputs, consts)
        except d3dbc.D3dbcError as e:
            assert p.returncode != 0, (name, e)
            continue
        assert p.returncode == 0, (name, p.stderr)
        want = json.loads(p.stdout)
        assert {k: list(v) for k, v in out.items()} == want["outputs"], name
        assert out.killed == want.get("killed"), name
        ran += 1
    assert ran >= 40


def test_run_inputs_constants_trace():
    sh = d3dbc.assemble("ps_2_0\ndcl t0.xy\ndef c1, 0.5, 0.5, 0.5, 0.5\nmul r0, t0, c1\nadd oC0, r0, c0\n")
    out = sh.run({"t0": (0.5, 1.0)}, {"c0": (0, 0, 0, 1)}, trace=True)
    assert out["oC0"] == (0.25, 0.5, 0.0, 1.5)
    assert out.killed is False
    assert [t for t, _ in out.trace][-1].strip().startswith("add oC0")
    with pytest.raises(d3dbc.ArgumentError) as e:
        sh.run(constants={"c9999": 1})
    assert "c0" in str(e.value) and "c31" in str(e.value)
    with pytest.raises(d3dbc.ArgumentError):
        sh.run({"x7": (1,)})
    vs = d3dbc.assemble("vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n")
    assert vs.run({"v0": (1, 2, 3, 1)}, {"c0": (2, 2, 2, 1)})["oPos"] == (2.0, 4.0, 6.0, 1.0)
    assert vs.run().killed is None


def png_rgba(data: bytes):
    """(width, height, RGBA rows) of an 8-bit RGBA PNG, as `d3dbc render` writes it."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert (depth, color) == (8, 6)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 4, [], bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, b"".join(rows)


def test_render_pixels_equal_the_png(cli, corpus_files, tmp_path):
    _, files = corpus_files
    pixel = [(n, s) for n, s in valid_shaders(files, 1) if s.is_pixel][::10]
    assert len(pixel) >= 15
    for name, sh in pixel:
        path = tmp_path / name
        path.write_bytes(sh.to_bytes())
        png = tmp_path / (name + ".png")
        p = run_cli(cli, "render", str(path), "-o", str(png), "--size", "40x24", "--const", "c0=0.5,0.25,1,1")
        try:
            img = sh.render(40, 24, constants={"c0": (0.5, 0.25, 1, 1)})
        except d3dbc.D3dbcError as e:
            assert p.returncode != 0, (name, e)
            continue
        assert p.returncode == 0, (name, p.stderr)
        assert img.shape == (24, 40, 4) and img.dtype == numpy.uint8
        w, h, rgba = png_rgba(png.read_bytes())
        assert (w, h) == (40, 24)
        assert img.tobytes() == rgba, name


def test_render_through_a_vertex_shader_and_textures(cli, tmp_path):
    ps = d3dbc.assemble("ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n")
    vs = d3dbc.assemble("vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmul oT0, v1, c0\n")
    (tmp_path / "p.pso").write_bytes(ps.to_bytes())
    (tmp_path / "v.vso").write_bytes(vs.to_bytes())
    png = tmp_path / "o.png"
    run_cli(cli, "render", str(tmp_path / "p.pso"), "--vs", str(tmp_path / "v.vso"), "-o", str(png), "--size", "16x16", "--const", "c0=2,2,1,1")
    img = ps.render(16, 16, vs=vs, constants={"c0": (2, 2, 1, 1)})
    assert img.tobytes() == png_rgba(png.read_bytes())[2]
    tex = numpy.zeros((2, 2, 4), dtype=numpy.uint8)
    tex[..., 0] = 255
    tex[..., 3] = 255
    red = ps.render(4, 4, textures={0: tex})
    assert (red[..., 0] == 255).all() and (red[..., 1] == 0).all()
    with pytest.raises(d3dbc.ArgumentError):
        ps.render(0, 4)
    with pytest.raises(d3dbc.ArgumentError):
        vs.render(4, 4)
